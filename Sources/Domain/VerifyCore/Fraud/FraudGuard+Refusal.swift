import Foundation

extension FraudGuard {
    /// The refusal of a start to a blocked or paused destination, with the verdict's reason.
    func refusal(_ verdict: FraudVerdict, now: Date, in tx: any StoreReader) throws -> VerifyError {
        // A block lasts until an operator clears it: no instant can be promised, so the client is
        // told to look again after one window (docs/ABUSE.md).
        let retryAfter = verdict.state == .blocked ? policy.window : try pauseSeconds(key: verdict.key, now: now, in: tx)
        let kind = verdict.key.hasPrefix("country:") ? "country" : "prefix"
        // Not a quota: a pause over the guard's window, reported as a policy with no sends left
        // until the pause ends.
        let pause = RateLimitReport(
            policy: "fraud_" + kind,
            status: LimitStatus(rule: LimitRule(quota: 0, window: policy.window), remaining: 0, resetSeconds: retryAfter))
        var error = VerifyError(
            .suspectedFraud, "sending to this destination is paused: \(verdict.reason)",
            details: [
                "scope": .string(kind), "key": .string(String(verdict.key.drop { $0 != ":" }.dropFirst())),
                "reason": .string(verdict.reason),
            ],
            retryAfter: retryAfter, rateLimit: pause)
        // An automatic pause of SMS may be escaped over WhatsApp; an operator's block may not.
        error.steerable = verdict.state == .paused && !verdict.key.contains("@")
        return Self.namingChannel(error, of: verdict.key)
    }

    /// A refusal of a channel's own key (`…@call`, `…@whatsapp`) names the channel in
    /// `details.channel`: the app may offer another, and an `auto` plan goes by the others.
    static func namingChannel(_ error: VerifyError, of key: String) -> VerifyError {
        guard let at = key.firstIndex(of: "@") else { return error }
        let channel = String(key[key.index(after: at)...].prefix { $0 != "~" })
        var named = VerifyError(
            error.code, error.message, details: error.details.merging(["channel": .string(channel)]) { $1 },
            retryAfter: error.retryAfter, rateLimit: error.rateLimit)
        named.steerable = error.steerable
        return named
    }

    /// Whether counters alone (sends and approvals, not baselines) keep a key paused.
    func isPausedByCounts(_ counts: (sent: Int, approved: Int)) -> Bool {
        counts.sent >= policy.minSends && isLow(counts, policy.minConversion)
    }

    /// Seconds until `key` is admitted again if nothing new happens (no approvals of codes
    /// already sent; no sends, since they are refused). A pause therefore lasts up to a whole
    /// window, not a bucket (PostgreSQL answers the sums from the counters it prefetched).
    func pauseSeconds(key: String, now: Date, in tx: any StoreReader) throws -> Int {
        try secondsUntil(key: key, now: now, in: tx) { !isPausedByCounts($0) }
    }
}
