import Foundation

/// Builds the events of docs/EVENTS.md and writes them into the events outbox inside the
/// transaction of the change they report. Services hold it as an optional: with no events URL
/// configured there is none, and the request path writes nothing more.
///
/// Payloads never hold a code. They hold the E.164 number (the auth server signs users in by
/// it); nothing here logs them.
public struct EventRecorder: Sendable {
    /// The types to emit (`PHONE_VERIFY_EVENTS`); others are never written.
    public let types: Set<EventType>
    let random: any RandomSource
    /// The fraud guard's window: `fraud.paused` is emitted once per key per window.
    let fraudWindow: Int
    let pauses: PauseLog

    public init(types: Set<EventType> = Set(EventType.allCases), random: any RandomSource, fraudWindow: Int = 3600) {
        self.types = types
        self.random = random
        self.fraudWindow = max(1, fraudWindow)
        pauses = PauseLog()
    }

    public func wants(_ type: EventType) -> Bool { types.contains(type) }

    /// An event with a fresh id, or `id` when the event must be written once only (a retried
    /// or repeated change inserts the same id, which the store ignores).
    public func make(_ type: EventType, data: [JSONMember], at: Date, id: String? = nil) -> WebhookEvent {
        let body: JSONValue = .object([
            JSONMember("type", .string(type.rawValue)), JSONMember("timestamp", .string(RFC3339.format(at))),
            JSONMember("data", .object(data)),
        ])
        return WebhookEvent(
            id: id ?? random.timeOrderedIdentifier(prefix: "evt_", at: at), type: type, createdAt: at,
            body: String(decoding: body.encoded(), as: UTF8.self))
    }

    // MARK: Verifications

    /// The `verification.started` event of `v`, if wanted.
    func startedEvent(_ v: Verification, at: Date) -> WebhookEvent? {
        guard wants(.verificationStarted) else { return nil }
        return make(.verificationStarted, data: Self.verification(v) + [
            JSONMember("expires_at", .string(RFC3339.format(v.expiresAt))),
        ], at: at)
    }

    func approved(_ v: Verification, at: Date, in tx: any StoreTransaction) throws {
        guard wants(.verificationApproved) else { return }
        try tx.insertEvent(make(.verificationApproved, data: Self.verification(v) + [
            JSONMember("attempts", .int(Int64(v.attempts))),
        ], at: at))
    }

    /// `reason`: `max_attempts_reached` or `expired`. Written once per verification (its id is
    /// derived from the verification's), however many checks find it expired.
    func failed(_ v: Verification, reason: String, at: Date, in tx: any StoreTransaction) throws {
        guard wants(.verificationFailed) else { return }
        try tx.insertEvent(make(.verificationFailed, data: Self.verification(v) + [
            JSONMember("reason", .string(reason)), JSONMember("attempts", .int(Int64(v.attempts))),
        ], at: at, id: "evt_failed_" + v.id))
    }

    package func canceled(_ v: Verification, at: Date, in tx: any StoreTransaction) throws {
        guard wants(.verificationCanceled) else { return }
        try tx.insertEvent(make(.verificationCanceled, data: Self.verification(v), at: at))
    }

    static func verification(_ v: Verification) -> [JSONMember] {
        var members = [
            JSONMember("verification_id", .string(v.id)), JSONMember("phone_number", .string(v.phoneNumber)),
            JSONMember("region", .string(v.region)), JSONMember("purpose", .string(v.purpose.rawValue)),
            JSONMember("channel", .string(v.channel)),
        ]
        if let subject = v.subject { members.append(JSONMember("subject", .string(subject))) }
        return members
    }

    // MARK: MFA

    /// `imported`: the factor came from `POST /v1/admin/users/{id}/factors` (a migration), not
    /// from a code the user entered; the event says so (`"imported": true`).
    func factorEnrolled(_ f: Factor, at: Date, in tx: any StoreTransaction, imported: Bool = false) throws {
        guard wants(.factorEnrolled) else { return }
        try tx.insertEvent(make(.factorEnrolled, data: Self.factor(f) + [JSONMember("imported", .bool(imported))], at: at))
    }

    func factorDeleted(_ f: Factor, at: Date, in tx: any StoreTransaction) throws {
        guard wants(.factorDeleted) else { return }
        try tx.insertEvent(make(.factorDeleted, data: Self.factor(f), at: at))
    }

    static func factor(_ f: Factor) -> [JSONMember] {
        [
            JSONMember("factor_id", .string(f.id)), JSONMember("subject", .string(f.subject)),
            JSONMember("phone_number", .string(f.phoneNumber)), JSONMember("country_code", .int(Int64(f.countryCode))),
        ]
    }
}
