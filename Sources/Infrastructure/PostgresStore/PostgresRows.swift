import Foundation
import Postgres
import VerifyCore

/// Row ↔ domain mapping for the PostgreSQL store: the same encoding as `SQLiteRows` (instants
/// as Unix milliseconds rounded to the nearest, blobs as bytes, rate-limit logs as
/// little-endian Int64 arrays).
enum PostgresRows {
    /// SQL condition: a receipt with status `new` may replace status `current` (a final state is
    /// never replaced, "sent" never replaces "failed"; the in-memory store's rule too).
    static func receiptReplaces(_ new: String, _ current: String) -> String {
        "\(current) NOT IN ('delivered', 'undelivered') AND NOT (\(new) = 'sent' AND \(current) = 'failed')"
    }

    static func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    static func millis(_ date: Date) -> PostgresValue { .int(ms(date)) }
    static func millis(_ date: Date?) -> PostgresValue { date.map { millis($0) } ?? .null }
    static func date(_ value: Int64) -> Date { Date(timeIntervalSince1970: Double(value) / 1000) }
    static func text(_ value: String?) -> PostgresValue { value.map { .text($0) } ?? .null }
    static func int(_ value: Int) -> PostgresValue { .int(Int64(value)) }
    /// A date as it comes back from the store (whole milliseconds).
    static func stored(_ date: Date) -> Date { self.date(ms(date)) }

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

    struct Corrupt: Error, CustomStringConvertible {
        let column: String
        var description: String { "unexpected value in column \(column)" }
    }

    static func int(_ row: PostgresRow, _ column: String) throws -> Int64 {
        guard let value = row.int(column) else { throw Corrupt(column: column) }
        return value
    }

    static func string(_ row: PostgresRow, _ column: String) throws -> String {
        guard let value = row.text(column) else { throw Corrupt(column: column) }
        return value
    }

    // MARK: Verifications

    static let verificationColumns = """
        id, phone_number, display, region, country_code, channel, locale, purpose, subject, session_id, status, \
        code_hash, code_length, attempts, max_attempts, sends, max_sends, created_at, expires_at, last_sent_at, \
        resend_available_at, approved_at
        """

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

    static func verification(_ row: PostgresRow) throws -> Verification {
        guard let purpose = Purpose(rawValue: try string(row, "purpose")) else { throw Corrupt(column: "purpose") }
        guard let status = VerificationStatus(rawValue: try string(row, "status")) else { throw Corrupt(column: "status") }
        return Verification(
            id: try string(row, "id"), phoneNumber: try string(row, "phone_number"), display: try string(row, "display"),
            region: try string(row, "region"), countryCode: Int(try int(row, "country_code")),
            channel: try string(row, "channel"), locale: row.text("locale"), purpose: purpose,
            subject: row.text("subject"), sessionID: row.text("session_id"), storedStatus: status,
            codeHash: row.bytes("code_hash") ?? [], codeLength: Int(try int(row, "code_length")),
            attempts: Int(try int(row, "attempts")), maxAttempts: Int(try int(row, "max_attempts")),
            sends: Int(try int(row, "sends")), maxSends: Int(try int(row, "max_sends")),
            createdAt: date(try int(row, "created_at")), expiresAt: date(try int(row, "expires_at")),
            lastSentAt: date(try int(row, "last_sent_at")), resendAvailableAt: date(try int(row, "resend_available_at")),
            approvedAt: row.int("approved_at").map(date))
    }

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

    static let outboxColumns = """
        id, verification_id, to_number, purpose, payload, status, gateway, attempts, last_error, provider_message_id, \
        created_at, updated_at, next_attempt_at, expires_at, channel, fallback_of
        """

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

    static func message(_ row: PostgresRow) throws -> OutboxMessage {
        guard let purpose = Purpose(rawValue: try string(row, "purpose")) else { throw Corrupt(column: "purpose") }
        guard let status = DeliveryStatus(rawValue: try string(row, "status")) else { throw Corrupt(column: "status") }
        return OutboxMessage(
            id: try string(row, "id"), verificationID: try string(row, "verification_id"), to: try string(row, "to_number"),
            purpose: purpose, sealedPayload: row.bytes("payload") ?? [], status: status, gateway: row.text("gateway"),
            attempts: Int(try int(row, "attempts")), lastError: row.text("last_error"),
            providerMessageID: row.text("provider_message_id"), createdAt: date(try int(row, "created_at")),
            updatedAt: date(try int(row, "updated_at")), nextAttemptAt: date(try int(row, "next_attempt_at")),
            expiresAt: date(try int(row, "expires_at")), channel: Channel(rawValue: row.text("channel") ?? "") ?? .sms,
            fallbackOf: row.text("fallback_of"))
    }

    /// A message that is the verification's `delivery`: not a fallback that was never tried.
    static let isDelivery = "(fallback_of IS NULL OR attempts > 0)"

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

    static let factorColumns = "id, subject, phone_number, country_code, created_at, last_used_at, display_name"

    static func factor(_ row: PostgresRow) throws -> Factor {
        Factor(
            id: try string(row, "id"), subject: try string(row, "subject"), phoneNumber: try string(row, "phone_number"),
            countryCode: Int(try int(row, "country_code")), createdAt: date(try int(row, "created_at")),
            lastUsedAt: row.int("last_used_at").map(date), displayName: row.text("display_name"))
    }

    static func stored(_ f: Factor) -> Factor {
        Factor(
            id: f.id, subject: f.subject, phoneNumber: f.phoneNumber, countryCode: f.countryCode,
            createdAt: stored(f.createdAt), lastUsedAt: f.lastUsedAt.map(stored), displayName: f.displayName)
    }
}
