import Foundation
import Encoding

/// One stored rate-limit log, as operators' listings read it.
public struct LimitLogRow: Sendable, Equatable {
    public let key: String
    public let events: [Int64]

    public init(key: String, events: [Int64]) {
        self.key = key
        self.events = events
    }
}

/// Direct access to rate-limit logs by key prefix, for operators (outside the request path).
public protocol LimitLogAdminStore: Sendable {
    /// Every log whose key starts with `prefix`.
    func limitLogs(prefix: String) throws -> [LimitLogRow]
    /// Deletes every log whose key starts with `prefix`; returns how many.
    func deleteLimitLogs(prefix: String) throws -> Int
    /// Deletes every log `scope|window|value` or `scope|window|value|…` whose scope is one of
    /// `scopes` (any window); returns how many (``LimitsAdmin/matches(_:scopes:value:)``).
    func deleteLimitLogs(scopes: [String], value: String) throws -> Int
}

/// One requester waiting out (or close to) its failed-check backoff on one number.
public struct Lockout: Sendable, Equatable {
    public let phoneNumber: String
    /// The client IP or /64, `user:<sub>` for MFA, or the trusted server caller.
    public let requester: String
    /// Failures counted in the lockout's window.
    public let failures: Int
    /// Until when the requester must wait; nil when it may try again now.
    public let lockedUntil: Date?
}

/// What operators do about failed-check lockouts: list them, lift them for a number
/// (`phone-verify lockout list | clear NUMBER`, `GET`/`DELETE /v1/admin/lockouts`).
public struct LockoutAdmin: Sendable {
    let store: any LimitLogAdminStore
    let clock: any Clock
    let policy: LockoutPolicy?

    public init(store: any LimitLogAdminStore, clock: any Clock, limits: RateLimits) {
        self.store = store
        self.clock = clock
        self.policy = limits.lockout
    }

    /// Every requester with failures still counted, longest wait first; `phone` narrows to one number.
    public func list(phone: String? = nil) throws -> [Lockout] {
        let now = clock.now()
        let ms = RateLimiter.millis(now)
        let prefix = phone.map { LockoutPolicy.keyPrefix(phone: $0) } ?? LockoutPolicy.allKeysPrefix
        return try store.limitLogs(prefix: prefix).compactMap { row -> Lockout? in
            let rest = row.key.dropFirst(LockoutPolicy.allKeysPrefix.count)
            guard let bar = rest.firstIndex(of: "|") else { return nil }
            let counted = policy.map { $0.counted(row.events, now: ms) } ?? []
            guard let policy, !counted.isEmpty else { return nil }
            let status = policy.status(row.events, now: ms)
            return Lockout(
                phoneNumber: String(rest[..<bar]), requester: String(rest[rest.index(after: bar)...]), failures: counted.count,
                lockedUntil: status.isExhausted ? now.addingTimeInterval(TimeInterval(status.resetSeconds)) : nil)
        }
        .sorted { ($0.lockedUntil ?? .distantPast, $0.failures) > ($1.lockedUntil ?? .distantPast, $1.failures) }
    }

    /// Lifts every requester's lockout of `phone` (an E.164 number); returns how many requesters
    /// had failures counted (the logs deleted may include empty ones a store keeps for locking).
    public func clear(phone: String) throws -> Int {
        guard phone.hasPrefix("+"), (2...16).contains(phone.count), phone.dropFirst().allSatisfy(ASCII.isDigit) else {
            throw VerifyError(.invalidPhoneNumber, "phone_number must be in E.164 form (+ and digits)", details: ["reason": "not_a_number"])
        }
        let counted = try list(phone: phone).count
        _ = try store.deleteLimitLogs(prefix: LockoutPolicy.keyPrefix(phone: phone))
        return counted
    }
}
