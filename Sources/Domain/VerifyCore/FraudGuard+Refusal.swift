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
        return VerifyError(
            .suspectedFraud, "sending to this destination is paused: \(verdict.reason)",
            details: [
                "scope": .string(kind), "key": .string(String(verdict.key.drop { $0 != ":" }.dropFirst())),
                "reason": .string(verdict.reason),
            ],
            retryAfter: retryAfter, rateLimit: pause)
    }

    /// Whether counters alone (sends and approvals, not baselines) keep a key paused.
    func isPausedByCounts(_ counts: (sent: Int, approved: Int)) -> Bool {
        counts.sent >= policy.minSends && isLow(counts, policy.minConversion)
    }

    /// Seconds until `key` is admitted again if nothing new happens (no approvals of codes
    /// already sent; no sends, since they are refused): its buckets leave the window oldest
    /// first, a bucket starting at `b` counting up to and including `b + window`, and what
    /// remains is judged after each. A pause therefore lasts up to a whole window, not a bucket.
    /// Reads at most window ÷ bucket + 1 sums, only on a refusal (PostgreSQL answers them from
    /// the counters it prefetched).
    func pauseSeconds(key: String, now: Date, in tx: any StoreReader) throws -> Int {
        let size = Double(policy.bucket)
        let window = Double(policy.window)
        let nowSeconds = now.timeIntervalSince1970
        var leaving = ((nowSeconds - window) / size).rounded(.up) * size  // oldest bucket counted now
        let current = bucket(now).timeIntervalSince1970
        while leaving <= current {
            let remaining = try tx.fraudCounts(key: key, since: Date(timeIntervalSince1970: leaving + size))
            if !isPausedByCounts(remaining) { return max(1, Int((leaving + window - nowSeconds).rounded(.down)) + 1) }
            leaving += size
        }
        return policy.window  // not reached: once the current bucket leaves, nothing remains
    }
}
