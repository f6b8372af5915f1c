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

    /// Every block and country with activity in the window or an override (the guard's own
    /// bookkeeping keys — distinct blocks and clients — are not listed).
    public func stats() throws -> [FraudStat] {
        let since = clock.now().addingTimeInterval(-TimeInterval(policy.window))
        return try store.read { try $0.fraudStats(since: since) }.filter { Self.isValidKey($0.key) }
    }

    /// Each listed key with the guard's verdict and its reason, as a start would see it now.
    public func verdicts() throws -> [(stat: FraudStat, verdict: FraudVerdict)] {
        let now = clock.now()
        let guardian = FraudGuard(policy: policy)
        let stats = try stats()
        return try store.read { reader in
            try stats.map { stat in
                let verdict = policy.enabled
                    ? try guardian.verdict(key: stat.key, now: now, in: reader)
                    : FraudVerdict(key: stat.key, state: .normal, reason: "the fraud guard is off", sent: stat.sent, approved: stat.approved)
                return (stat, verdict)
            }
        }
    }

    /// Whether the guard refuses starts to this verdict's key (without a challenge provider).
    public static func isRefused(_ verdict: FraudVerdict) -> Bool {
        verdict.state == .paused || verdict.state == .blocked
    }

    /// Sets or clears an override. Keys are `prefix:+…` or `country:XX`.
    public func setOverride(key: String, action: FraudAction?) throws {
        guard Self.isValidKey(key) else {
            throw VerifyError(.invalidRequest, "key must be prefix:+DIGITS or country:XX, optionally followed by @whatsapp or @call and by ~ACCOUNT (a Twilio-compatible account's own key)", details: ["field": "key"])
        }
        let now = clock.now()
        try store.write { tx in try tx.setFraudOverride(key: key, action: action, now: now) }
    }

    public static func isValidKey(_ whole: String) -> Bool {
        // A tenant's keys end in `~ACCOUNT`, a channel's own in `@whatsapp` or `@call` (docs/ABUSE.md).
        var key = Substring(whole)
        if let tilde = key.lastIndex(of: "~") {
            let tenant = key[key.index(after: tilde)...]
            guard (1...64).contains(tenant.count), tenant.allSatisfy(ASCII.isAlphanumeric) else { return false }
            key = key[..<tilde]
        }
        if let at = key.lastIndex(of: "@") {
            guard ["whatsapp", "call"].contains(key[key.index(after: at)...]) else { return false }
            key = key[..<at]
        }
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
