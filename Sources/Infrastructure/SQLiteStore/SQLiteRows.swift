import Foundation
import SQLite
import VerifyCore

/// Row ↔ domain mapping for the SQLite store. Instants are stored as Unix milliseconds.
enum SQLiteRows {
    /// SQL condition: a receipt with status `new` may replace status `current` (a final state is
    /// never replaced, "sent" never replaces "failed"; the in-memory store's rule too).
    static func receiptReplaces(_ new: String, _ current: String) -> String {
        "\(current) NOT IN ('delivered', 'undelivered') AND NOT (\(new) = 'sent' AND \(current) = 'failed')"
    }

    static func millis(_ date: Date) -> SQLiteValue { .integer(Int64((date.timeIntervalSince1970 * 1000).rounded())) }
    static func millis(_ date: Date?) -> SQLiteValue { date.map { millis($0) } ?? .null }
    static func date(_ value: Int64) -> Date { Date(timeIntervalSince1970: Double(value) / 1000) }
    static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }

    struct Corrupt: Error, CustomStringConvertible {
        let column: String
        var description: String { "unexpected value in column \(column)" }
    }

    static func int(_ row: Row, _ column: String) throws -> Int64 {
        guard let value = row.int(column) else { throw Corrupt(column: column) }
        return value
    }

    static func string(_ row: Row, _ column: String) throws -> String {
        guard let value = row.text(column) else { throw Corrupt(column: column) }
        return value
    }

    static let verificationColumns = """
        id, phone_number, display, region, country_code, channel, locale, purpose, subject, session_id, status,
        code_hash, code_length, attempts, max_attempts, sends, max_sends, created_at, expires_at, last_sent_at,
        resend_available_at, approved_at
        """

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

    static func verification(_ row: Row) throws -> Verification {
        guard let purpose = Purpose(rawValue: try string(row, "purpose")) else { throw Corrupt(column: "purpose") }
        guard let status = VerificationStatus(rawValue: try string(row, "status")) else { throw Corrupt(column: "status") }
        return Verification(
            id: try string(row, "id"), phoneNumber: try string(row, "phone_number"), display: try string(row, "display"),
            region: try string(row, "region"), countryCode: Int(try int(row, "country_code")),
            channel: try string(row, "channel"), locale: row.text("locale"), purpose: purpose,
            subject: row.text("subject"), sessionID: row.text("session_id"), storedStatus: status,
            codeHash: row.blob("code_hash") ?? [], codeLength: Int(try int(row, "code_length")),
            attempts: Int(try int(row, "attempts")), maxAttempts: Int(try int(row, "max_attempts")),
            sends: Int(try int(row, "sends")), maxSends: Int(try int(row, "max_sends")),
            createdAt: date(try int(row, "created_at")), expiresAt: date(try int(row, "expires_at")),
            lastSentAt: date(try int(row, "last_sent_at")), resendAvailableAt: date(try int(row, "resend_available_at")),
            approvedAt: row.int("approved_at").map(date))
    }

    static let outboxColumns = """
        id, verification_id, to_number, purpose, payload, status, gateway, attempts, last_error, provider_message_id,
        created_at, updated_at, next_attempt_at, expires_at, channel, fallback_of
        """

    static func values(_ m: OutboxMessage) -> [SQLiteValue] {
        [
            .text(m.id), .text(m.verificationID), .text(m.to), .text(m.purpose.rawValue), .blob(m.sealedPayload),
            .text(m.status.rawValue), text(m.gateway), .integer(Int64(m.attempts)), text(m.lastError),
            text(m.providerMessageID), millis(m.createdAt), millis(m.updatedAt), millis(m.nextAttemptAt),
            millis(m.expiresAt), .text(m.channel.rawValue), text(m.fallbackOf),
        ]
    }

    static func message(_ row: Row) throws -> OutboxMessage {
        guard let purpose = Purpose(rawValue: try string(row, "purpose")) else { throw Corrupt(column: "purpose") }
        guard let status = DeliveryStatus(rawValue: try string(row, "status")) else { throw Corrupt(column: "status") }
        return OutboxMessage(
            id: try string(row, "id"), verificationID: try string(row, "verification_id"), to: try string(row, "to_number"),
            purpose: purpose, sealedPayload: row.blob("payload") ?? [], status: status, gateway: row.text("gateway"),
            attempts: Int(try int(row, "attempts")), lastError: row.text("last_error"),
            providerMessageID: row.text("provider_message_id"), createdAt: date(try int(row, "created_at")),
            updatedAt: date(try int(row, "updated_at")), nextAttemptAt: date(try int(row, "next_attempt_at")),
            expiresAt: date(try int(row, "expires_at")), channel: Channel(rawValue: row.text("channel") ?? "") ?? .sms,
            fallbackOf: row.text("fallback_of"))
    }

    /// A message that is the verification's `delivery`: not a fallback that was never tried.
    static let isDelivery = "(fallback_of IS NULL OR attempts > 0)"
}
