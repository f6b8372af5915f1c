import Foundation
import VerifyCore

/// The stores' one encoding of the domain's records, shared by `SQLiteStore` and `PostgresStore`
/// (docs/ARCHITECTURE.md, "The stores"): the same columns in the same order, instants as Unix
/// milliseconds rounded to the nearest, blobs as bytes. Each store binds values its own way
/// (`SQLiteValue`, `PostgresValue`); reading a row back is written once, here.
public enum StoredRecords {
    // MARK: Instants

    /// Unix milliseconds, rounded to the nearest.
    @inlinable
    public static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    @inlinable
    public static func date(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }

    /// A date as it comes back from a store (whole milliseconds).
    @inlinable
    public static func stored(_ date: Date) -> Date { self.date(millis(date)) }

    // MARK: Conditions

    /// SQL condition: a receipt with status `new` may replace status `current` (a final state is
    /// never replaced, "sent" never replaces "failed"; the in-memory store's rule too).
    public static func receiptReplaces(_ new: String, _ current: String) -> String {
        "\(current) NOT IN ('delivered', 'undelivered') AND NOT (\(new) = 'sent' AND \(current) = 'failed')"
    }

    /// A message that is the verification's `delivery`: not a fallback that was never tried.
    public static let isDelivery = "(fallback_of IS NULL OR attempts > 0)"

    // MARK: Verifications

    public static let verificationColumns = """
        id, phone_number, display, region, country_code, channel, locale, purpose, subject, session_id, status, \
        code_hash, code_length, attempts, max_attempts, sends, max_sends, created_at, expires_at, last_sent_at, \
        resend_available_at, approved_at
        """

    @inlinable
    public static func verification<Row: RecordRow>(_ row: Row) throws -> Verification {
        guard let purpose = Purpose(rawValue: try row.string("purpose")) else { throw CorruptRecord(column: "purpose") }
        guard let status = VerificationStatus(rawValue: try row.string("status")) else { throw CorruptRecord(column: "status") }
        return Verification(
            id: try row.string("id"), phoneNumber: try row.string("phone_number"), display: try row.string("display"),
            region: try row.string("region"), countryCode: Int(try row.integer("country_code")),
            channel: try row.string("channel"), locale: row.text("locale"), purpose: purpose,
            subject: row.text("subject"), sessionID: row.text("session_id"), storedStatus: status,
            codeHash: row.bytes("code_hash") ?? [], codeLength: Int(try row.integer("code_length")),
            attempts: Int(try row.integer("attempts")), maxAttempts: Int(try row.integer("max_attempts")),
            sends: Int(try row.integer("sends")), maxSends: Int(try row.integer("max_sends")),
            createdAt: date(try row.integer("created_at")), expiresAt: date(try row.integer("expires_at")),
            lastSentAt: date(try row.integer("last_sent_at")), resendAvailableAt: date(try row.integer("resend_available_at")),
            approvedAt: row.int("approved_at").map(date))
    }

    // MARK: Outbox

    public static let outboxColumns = """
        id, verification_id, to_number, purpose, payload, status, gateway, attempts, last_error, provider_message_id, \
        created_at, updated_at, next_attempt_at, expires_at, channel, fallback_of
        """

    @inlinable
    public static func message<Row: RecordRow>(_ row: Row) throws -> OutboxMessage {
        guard let purpose = Purpose(rawValue: try row.string("purpose")) else { throw CorruptRecord(column: "purpose") }
        guard let status = DeliveryStatus(rawValue: try row.string("status")) else { throw CorruptRecord(column: "status") }
        return OutboxMessage(
            id: try row.string("id"), verificationID: try row.string("verification_id"), to: try row.string("to_number"),
            purpose: purpose, sealedPayload: row.bytes("payload") ?? [], status: status, gateway: row.text("gateway"),
            attempts: Int(try row.integer("attempts")), lastError: row.text("last_error"),
            providerMessageID: row.text("provider_message_id"), createdAt: date(try row.integer("created_at")),
            updatedAt: date(try row.integer("updated_at")), nextAttemptAt: date(try row.integer("next_attempt_at")),
            expiresAt: date(try row.integer("expires_at")), channel: Channel(rawValue: row.text("channel") ?? "") ?? .sms,
            fallbackOf: row.text("fallback_of"))
    }

    // MARK: Factors

    public static let factorColumns = "id, subject, phone_number, country_code, created_at, last_used_at, display_name"

    @inlinable
    public static func factor<Row: RecordRow>(_ row: Row) throws -> Factor {
        Factor(
            id: try row.string("id"), subject: try row.string("subject"), phoneNumber: try row.string("phone_number"),
            countryCode: Int(try row.integer("country_code")), createdAt: date(try row.integer("created_at")),
            lastUsedAt: row.int("last_used_at").map(date), displayName: row.text("display_name"))
    }
}
