import Foundation

/// Signed-out browser sessions (the operator console's), kept in the store so every replica
/// refuses them: one row per session under `session_revoked|KEY` in the rate-limit logs, which
/// expire (and are purged) when the session would have ended anyway. `KEY` is the caller's
/// keyed hash of the session id, never the id. The row's one "event" is the instant the
/// revocation ends (Unix ms), so a row not purged yet stops counting on time.
public struct SessionRevocations: Sendable {
    public static let keyPrefix = "session_revoked|"
    let store: any VerificationStore
    let clock: any Clock

    public init(store: any VerificationStore, clock: any Clock) {
        self.store = store
        self.clock = clock
    }

    /// Records that the session `key` ended; it stays refused until `until`.
    public func revoke(_ key: String, until: Date) throws {
        let now = clock.now()
        let row = Self.keyPrefix + key
        try store.write(reading: ReadSet(limitKeys: [row])) { tx in
            try tx.setLimitEvents(key: row, events: [Int64(until.timeIntervalSince1970 * 1000)], expiresAt: max(until, now))
        }
    }

    /// Whether the session `key` was signed out (a row past its expiry no longer counts).
    public func isRevoked(_ key: String) throws -> Bool {
        let row = Self.keyPrefix + key
        let now = Int64(clock.now().timeIntervalSince1970 * 1000)
        return try store.read { try $0.limitEvents(key: row) }.contains { $0 > now }
    }
}
