import Foundation
import Postgres
import StoreRecords
import VerifyCore

/// A PostgreSQL row as the stores' shared decoders read it (`StoredRecords`).
struct PostgresRecord: RecordRow {
    let row: PostgresRow

    init(_ row: PostgresRow) {
        self.row = row
    }

    func text(_ column: String) -> String? { row.text(column) }
    func int(_ column: String) -> Int64? { row.int(column) }
    func bytes(_ column: String) -> [UInt8]? { row.bytes(column) }
}

/// Row ↔ domain mapping for the PostgreSQL store: binding values as `PostgresValue`; the columns
/// and the decoding are the stores' shared ones (`StoredRecords`: instants as Unix milliseconds
/// rounded to the nearest, blobs as bytes; rate-limit logs as little-endian Int64 arrays).
enum PostgresRows {
    static func receiptReplaces(_ new: String, _ current: String) -> String { StoredRecords.receiptReplaces(new, current) }

    static func ms(_ date: Date) -> Int64 { StoredRecords.millis(date) }
    static func millis(_ date: Date) -> PostgresValue { .int(ms(date)) }
    static func millis(_ date: Date?) -> PostgresValue { date.map { millis($0) } ?? .null }
    static func date(_ value: Int64) -> Date { StoredRecords.date(value) }
    static func text(_ value: String?) -> PostgresValue { value.map { .text($0) } ?? .null }
    static func int(_ value: Int) -> PostgresValue { .int(Int64(value)) }
    /// A date as it comes back from the store (whole milliseconds).
    static func stored(_ date: Date) -> Date { StoredRecords.stored(date) }

    /// A `text[]` parameter (`$1::text[]`) in PostgreSQL's array literal syntax: every element
    /// double-quoted, with `"` and `\` escaped, so any text is carried verbatim.
    static func textArray<S: Sequence>(_ values: S) -> PostgresValue where S.Element == String {
        var literal = "{"
        var first = true
        for value in values {
            if !first { literal += "," }
            first = false
            literal += "\""
            for character in value.unicodeScalars {
                if character == "\"" || character == "\\" { literal += "\\" }
                literal.unicodeScalars.append(character)
            }
            literal += "\""
        }
        return .text(literal + "}")
    }

    typealias Corrupt = CorruptRecord

    static func int(_ row: PostgresRow, _ column: String) throws -> Int64 { try PostgresRecord(row).integer(column) }

    static func string(_ row: PostgresRow, _ column: String) throws -> String { try PostgresRecord(row).string(column) }

    // MARK: Verifications

    static let verificationColumns = StoredRecords.verificationColumns

    static let insertVerification =
        "INSERT INTO verifications (\(verificationColumns)) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22)"

    static func values(_ v: Verification) -> [PostgresValue] {
        [
            .text(v.id), .text(v.phoneNumber), .text(v.display), .text(v.region), int(v.countryCode),
            .text(v.channel), text(v.locale), .text(v.purpose.rawValue), text(v.subject), text(v.sessionID),
            .text(v.storedStatus.rawValue), .bytes(v.codeHash), int(v.codeLength), int(v.attempts), int(v.maxAttempts),
            int(v.sends), int(v.maxSends), millis(v.createdAt), millis(v.expiresAt), millis(v.lastSentAt),
            millis(v.resendAvailableAt), millis(v.approvedAt),
        ]
    }

    static let updateVerification = """
        UPDATE verifications SET status = $1, code_hash = $2, code_length = $3, attempts = $4, sends = $5, expires_at = $6,
            last_sent_at = $7, resend_available_at = $8, approved_at = $9, purpose = $10, channel = $12 WHERE id = $11
        """

    static func updateValues(_ v: Verification) -> [PostgresValue] {
        [
            .text(v.storedStatus.rawValue), .bytes(v.codeHash), int(v.codeLength), int(v.attempts), int(v.sends),
            millis(v.expiresAt), millis(v.lastSentAt), millis(v.resendAvailableAt), millis(v.approvedAt), .text(v.purpose.rawValue),
            .text(v.id), .text(v.channel),
        ]
    }

    static func verification(_ row: PostgresRow) throws -> Verification { try StoredRecords.verification(PostgresRecord(row)) }

    /// A verification as reading it back would give it (instants in whole milliseconds).
    static func stored(_ v: Verification) -> Verification {
        var v = v
        v.createdAt = stored(v.createdAt)
        v.expiresAt = stored(v.expiresAt)
        v.lastSentAt = stored(v.lastSentAt)
        v.resendAvailableAt = stored(v.resendAvailableAt)
        v.approvedAt = v.approvedAt.map(stored)
        return v
    }

    // MARK: Outbox

    static let outboxColumns = StoredRecords.outboxColumns

    static let insertMessage =
        "INSERT INTO outbox (\(outboxColumns), lease_owner, lease_until) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18)"

    static func values(_ m: OutboxMessage) -> [PostgresValue] {
        [
            .text(m.id), .text(m.verificationID), .text(m.to), .text(m.purpose.rawValue), .bytes(m.sealedPayload),
            .text(m.status.rawValue), text(m.gateway), int(m.attempts), text(m.lastError), text(m.providerMessageID),
            millis(m.createdAt), millis(m.updatedAt), millis(m.nextAttemptAt), millis(m.expiresAt),
            .text(m.channel.rawValue), text(m.fallbackOf),
        ]
    }

    static func message(_ row: PostgresRow) throws -> OutboxMessage { try StoredRecords.message(PostgresRecord(row)) }

    /// A message that is the verification's `delivery`: not a fallback that was never tried.
    static let isDelivery = StoredRecords.isDelivery

    static func stored(_ m: OutboxMessage) -> OutboxMessage {
        var m = m
        m.createdAt = stored(m.createdAt)
        m.updatedAt = stored(m.updatedAt)
        m.nextAttemptAt = stored(m.nextAttemptAt)
        m.expiresAt = stored(m.expiresAt)
        return m
    }

    // MARK: Idempotency records

    static func idempotencyRecord(_ row: PostgresRow) throws -> IdempotencyRecord {
        let snapshot = try JSONDecoder().decode(Verification.self, from: Data(row.bytes("snapshot") ?? []))
        return IdempotencyRecord(
            key: try string(row, "key"), fingerprint: try string(row, "fingerprint"),
            verificationID: try string(row, "verification_id"), snapshot: snapshot,
            createdAt: date(try int(row, "created_at")))
    }

    // MARK: Factors

    static let factorColumns = StoredRecords.factorColumns

    static func factor(_ row: PostgresRow) throws -> Factor { try StoredRecords.factor(PostgresRecord(row)) }

    static func stored(_ f: Factor) -> Factor {
        Factor(
            id: f.id, subject: f.subject, phoneNumber: f.phoneNumber, countryCode: f.countryCode,
            createdAt: stored(f.createdAt), lastUsedAt: f.lastUsedAt.map(stored), displayName: f.displayName)
    }
}
