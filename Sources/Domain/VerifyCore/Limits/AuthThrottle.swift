import Foundation

/// Per-client backoff after failed authentications (a wrong console sign-in key, an unknown
/// bearer API key): `policy.freeFailures` free failures within its window, then each further
/// failure makes the client wait, doubling from `initialBackoff` to `maxBackoff`
/// (docs/OPERATIONS.md, "Sign-in throttle"). Counted per client IP (IPv6 per /64) in the
/// rate-limit logs under `auth_failed|CLIENT`, so every replica sees the same count, and only a
/// client's own failures delay it: a stranger cannot lock an operator out from another address.
public struct AuthThrottle: Sendable {
    public static let keyPrefix = "auth_failed|"
    /// 5 free failures an hour, then 1 s, 2 s, 4 s … up to 5 minutes.
    public static let defaultPolicy = LockoutPolicy(freeFailures: 5, window: 3600, initialBackoff: 1, maxBackoff: 300)

    let store: any VerificationStore
    public let clock: any Clock
    public let policy: LockoutPolicy

    public init(store: any VerificationStore, clock: any Clock, policy: LockoutPolicy = AuthThrottle.defaultPolicy) {
        self.store = store
        self.clock = clock
        self.policy = policy
    }

    /// Whole seconds `client` must still wait before its next attempt; nil when it may try now.
    public func wait(client: String) throws -> Int? {
        let key = Self.keyPrefix + client
        let events = try store.read { try $0.limitEvents(key: key) }
        return remaining(events, now: clock.now())
    }

    /// Counts a failure of `client`; returns the wait it now owes (nil: none yet).
    @discardableResult
    public func recordFailure(client: String) throws -> Int? {
        let key = Self.keyPrefix + client
        let now = clock.now()
        let nowMs = Int64(now.timeIntervalSince1970 * 1000)
        let policy = self.policy
        let events = try store.write(reading: ReadSet(limitKeys: [key])) { tx in
            let since = nowMs - Int64(policy.window) * 1000
            let kept = Array((try tx.limitEvents(key: key).filter { $0 > since } + [nowMs]).suffix(policy.freeFailures + 64))
            try tx.setLimitEvents(key: key, events: kept, expiresAt: now.addingTimeInterval(TimeInterval(policy.window)))
            return kept
        }
        return remaining(events, now: now)
    }

    private func remaining(_ events: [Int64], now: Date) -> Int? {
        let nowMs = Int64(now.timeIntervalSince1970 * 1000)
        let recent = events.filter { $0 > nowMs - Int64(policy.window) * 1000 }
        guard let last = recent.last else { return nil }
        let backoff = policy.backoff(afterFailures: recent.count)
        let left = last + Int64(backoff) * 1000 - nowMs
        return left > 0 ? Int((left + 999) / 1000) : nil
    }
}
