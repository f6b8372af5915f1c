import Foundation
import SQLite
import VerifyCore

/// The Twilio-compatible API's services and verification links (tables of migration 6).
extension SQLiteStore: TwilioCompatStore {}

extension SQLiteTransaction: TwilioCompatTransaction {
    static let serviceColumns = "sid, account_sid, settings, created_at, updated_at"

    func twilioCompatService(sid: String) throws -> TwilioCompatServiceRecord? {
        try db.queryOne("SELECT \(Self.serviceColumns) FROM twilio_services WHERE sid = ?", [.text(sid)]).map(Self.twilioCompatService)
    }

    func twilioCompatServices(accountSID: String, offset: Int, limit: Int) throws -> [TwilioCompatServiceRecord] {
        try db.query(
            "SELECT \(Self.serviceColumns) FROM twilio_services WHERE account_sid = ? ORDER BY created_at, sid LIMIT ? OFFSET ?",
            [.text(accountSID), .integer(Int64(limit)), .integer(Int64(offset))]
        ).map(Self.twilioCompatService)
    }

    func twilioCompatLink(verificationID: String) throws -> TwilioCompatVerificationLink? {
        try db.queryOne(
            "SELECT verification_id, service_sid, account_sid, to_number, created_at FROM twilio_verifications WHERE verification_id = ?",
            [.text(verificationID)]
        ).map { row in
            TwilioCompatVerificationLink(
                verificationID: try SQLiteRows.string(row, "verification_id"), serviceSID: try SQLiteRows.string(row, "service_sid"),
                accountSID: try SQLiteRows.string(row, "account_sid"), to: try SQLiteRows.string(row, "to_number"),
                createdAt: SQLiteRows.date(try SQLiteRows.int(row, "created_at")))
        }
    }

    func twilioCompatLatestVerificationID(serviceSID: String, to: String) throws -> String? {
        try db.queryOne(
            """
            SELECT verification_id FROM twilio_verifications WHERE service_sid = ? AND to_number = ?
            ORDER BY created_at DESC, verification_id DESC LIMIT 1
            """,
            [.text(serviceSID), .text(to)]
        )?.text("verification_id")
    }

    func twilioCompatPendingVerificationIDs(serviceSID: String) throws -> [String] {
        try db.query(
            """
            SELECT l.verification_id AS id FROM twilio_verifications l JOIN verifications v ON v.id = l.verification_id
            WHERE l.service_sid = ? AND v.status = 'pending'
            """,
            [.text(serviceSID)]
        ).compactMap { $0.text("id") }
    }

    func twilioCompatMessages(verificationID: String) throws -> [OutboxMessage] {
        try db.query(
            "SELECT \(SQLiteRows.outboxColumns) FROM outbox WHERE verification_id = ? ORDER BY created_at, rowid",
            [.text(verificationID)]
        ).map(SQLiteRows.message)
    }

    func saveTwilioCompatService(_ service: TwilioCompatServiceRecord) throws {
        let settings = String(decoding: try JSONEncoder().encode(service.settings), as: UTF8.self)
        try db.run(
            """
            INSERT INTO twilio_services (sid, account_sid, settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (sid) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at
            """,
            [
                .text(service.sid), .text(service.accountSID), .text(settings), SQLiteRows.millis(service.createdAt),
                SQLiteRows.millis(service.updatedAt),
            ])
    }

    func deleteTwilioCompatService(sid: String) throws {
        try db.run("DELETE FROM twilio_services WHERE sid = ?", [.text(sid)])
    }

    func linkTwilioCompatVerification(_ link: TwilioCompatVerificationLink) throws {
        try db.run(
            "INSERT INTO twilio_verifications (verification_id, service_sid, account_sid, to_number, created_at) VALUES (?, ?, ?, ?, ?)",
            [
                .text(link.verificationID), .text(link.serviceSID), .text(link.accountSID), .text(link.to),
                SQLiteRows.millis(link.createdAt),
            ])
    }

    static func twilioCompatService(_ row: Row) throws -> TwilioCompatServiceRecord {
        let settings = try JSONDecoder().decode(TwilioCompatServiceSettings.self, from: Data(try SQLiteRows.string(row, "settings").utf8))
        return TwilioCompatServiceRecord(
            sid: try SQLiteRows.string(row, "sid"), accountSID: try SQLiteRows.string(row, "account_sid"), settings: settings,
            createdAt: SQLiteRows.date(try SQLiteRows.int(row, "created_at")),
            updatedAt: SQLiteRows.date(try SQLiteRows.int(row, "updated_at")))
    }
}
