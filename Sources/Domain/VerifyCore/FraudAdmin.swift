import Foundation
import Encoding

/// What operators do about SMS pumping: look at conversion per key, allow or block a key.
public struct FraudAdmin: Sendable {
    let store: any VerificationStore
    let clock: any Clock
    let policy: FraudPolicy

    public init(store: any VerificationStore, clock: any Clock, policy: FraudPolicy) {
        self.store = store
        self.clock = clock
        self.policy = policy
    }

    /// Every key with activity in the window or an override.
    public func stats() throws -> [FraudStat] {
        let since = clock.now().addingTimeInterval(-TimeInterval(policy.window))
        return try store.read { try $0.fraudStats(since: since) }
    }

    /// Whether the guard refuses this key now.
    public func isRefused(_ stat: FraudStat) -> Bool {
        guard policy.enabled else { return false }
        switch stat.action {
        case .allow: return false
        case .block: return true
        case nil:
            return policy.enabled && stat.sent >= policy.minSends
                && Double(stat.approved) < policy.minConversion * Double(stat.sent)
        }
    }

    /// Sets or clears an override. Keys are `prefix:+…` or `country:XX`.
    public func setOverride(key: String, action: FraudAction?) throws {
        guard Self.isValidKey(key) else {
            throw VerifyError(.invalidRequest, "key must be prefix:+DIGITS or country:XX", details: ["field": "key"])
        }
        let now = clock.now()
        try store.write { tx in try tx.setFraudOverride(key: key, action: action, now: now) }
    }

    public static func isValidKey(_ key: String) -> Bool {
        if key.hasPrefix("prefix:+") {
            let digits = key.dropFirst("prefix:+".count)
            return (1...15).contains(digits.count) && digits.allSatisfy(ASCII.isDigit)
        }
        if key.hasPrefix("country:") {
            let region = key.dropFirst("country:".count)
            return region.count == 2 && region.allSatisfy(ASCII.isUppercase)
        }
        return false
    }
}
