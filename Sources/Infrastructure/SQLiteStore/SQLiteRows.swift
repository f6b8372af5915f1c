import Foundation
import SQLite
import StoreRecords
import VerifyCore

/// A SQLite row as the stores' shared decoders read it (`StoredRecords`).
struct SQLiteRecord: RecordRow {
    let row: Row

    init(_ row: Row) {
        self.row = row
    }

    func text(_ column: String) -> String? { row.text(column) }
    func int(_ column: String) -> Int64? { row.int(column) }
    func bytes(_ column: String) -> [UInt8]? { row.blob(column) }
}

/// Row ↔ domain mapping for the SQLite store: binding values as `SQLiteValue`; the columns and
/// the decoding are the stores' shared ones (`StoredRecords`). Instants are Unix milliseconds.
enum SQLiteRows {
    static func receiptReplaces(_ new: String, _ current: String) -> String { StoredRecords.receiptReplaces(new, current) }

    static func millis(_ date: Date) -> SQLiteValue { .integer(StoredRecords.millis(date)) }
    static func millis(_ date: Date?) -> SQLiteValue { date.map { millis($0) } ?? .null }
    static func date(_ value: Int64) -> Date { StoredRecords.date(value) }
    static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }

    typealias Corrupt = CorruptRecord

    static func int(_ row: Row, _ column: String) throws -> Int64 { try SQLiteRecord(row).integer(column) }
    static func string(_ row: Row, _ column: String) throws -> String { try SQLiteRecord(row).string(column) }

    static let verificationColumns = StoredRecords.verificationColumns

    static func values(_ v: Verification) -> [SQLiteValue] {
        [
            .text(v.id), .text(v.phoneNumber), .text(v.display), .text(v.region), .integer(Int64(v.countryCode)),
            .text(v.channel), text(v.locale), .text(v.purpose.rawValue), text(v.subject), text(v.sessionID),
            .text(v.storedStatus.rawValue), .blob(v.codeHash), .integer(Int64(v.codeLength)),
            .integer(Int64(v.attempts)), .integer(Int64(v.maxAttempts)), .integer(Int64(v.sends)),
            .integer(Int64(v.maxSends)), millis(v.createdAt), millis(v.expiresAt), millis(v.lastSentAt),
            millis(v.resendAvailableAt), millis(v.approvedAt),
        ]
    }

    static func verification(_ row: Row) throws -> Verification { try StoredRecords.verification(SQLiteRecord(row)) }

    static let outboxColumns = StoredRecords.outboxColumns

    static func values(_ m: OutboxMessage) -> [SQLiteValue] {
        [
            .text(m.id), .text(m.verificationID), .text(m.to), .text(m.purpose.rawValue), .blob(m.sealedPayload),
            .text(m.status.rawValue), text(m.gateway), .integer(Int64(m.attempts)), text(m.lastError),
            text(m.providerMessageID), millis(m.createdAt), millis(m.updatedAt), millis(m.nextAttemptAt),
            millis(m.expiresAt), .text(m.channel.rawValue), text(m.fallbackOf),
        ]
    }

    static func message(_ row: Row) throws -> OutboxMessage { try StoredRecords.message(SQLiteRecord(row)) }

    /// A message that is the verification's `delivery`: not a fallback that was never tried.
    static let isDelivery = StoredRecords.isDelivery
}
