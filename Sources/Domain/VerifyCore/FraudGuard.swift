import Foundation

/// Adaptive SMS-pumping protection: conversion (approved ÷ sent) per destination prefix and per
/// country over a sliding hour. A key with enough volume and too low a conversion is refused
/// (`suspected_fraud`) until conversion recovers or an operator allows it; operators can also
/// block a key outright.
public struct FraudPolicy: Sendable, Equatable {
    public var enabled = true
    /// Sends in the window before conversion is judged.
    public var minSends = 50
    /// Below this approved ÷ sent ratio, sends are refused.
    public var minConversion = 0.2
    /// Seconds of history that count.
    public var window = 3600
    /// Counters are kept in buckets of this many seconds (the window slides by a bucket).
    public var bucket = 300

    public init() {}
}

/// An operator's decision about a prefix or country key.
public enum FraudAction: String, Sendable, Codable, CaseIterable {
    case allow
    case block
}

/// Counters and override of one key, for operators.
public struct FraudStat: Sendable, Equatable {
    public let key: String
    public let sent: Int
    public let approved: Int
    public let action: FraudAction?

    public init(key: String, sent: Int, approved: Int, action: FraudAction?) {
        self.key = key
        self.sent = sent
        self.approved = approved
        self.action = action
    }

    public var conversion: Double? { sent == 0 ? nil : Double(approved) / Double(sent) }
}

public struct FraudGuard: Sendable {
    public let policy: FraudPolicy

    public init(policy: FraudPolicy) {
        self.policy = policy
    }

    /// The keys a number is judged by: its destination prefix and its country.
    public static func keys(prefix: String, region: String) -> [String] {
        ["prefix:" + prefix, "country:" + region]
    }

    /// Where the counters `admit` reads begin (`nil` when the guard is off).
    public func countsSince(_ now: Date) -> Date? {
        policy.enabled ? now.addingTimeInterval(-TimeInterval(policy.window)) : nil
    }

    /// Throws `suspected_fraud` when a key is blocked, or judged by its conversion.
    public func admit(keys: [String], now: Date, in tx: any StoreTransaction) throws {
        guard let since = countsSince(now) else { return }
        for key in keys {
            switch try tx.fraudOverride(key: key) {
            case .allow: continue
            case .block:
                // A block lasts until an operator clears it: no instant can be promised, so the
                // client is told to look again after one window (docs/ABUSE.md).
                throw refusal(key, reason: "blocked by an operator", retryAfter: policy.window)
            case nil:
                if isRefused(try tx.fraudCounts(key: key, since: since)) {
                    throw refusal(
                        key, reason: "too few codes to this destination are confirmed",
                        retryAfter: try pauseSeconds(key: key, now: now, in: tx))
                }
            }
        }
    }

    func isRefused(_ counts: (sent: Int, approved: Int)) -> Bool {
        counts.sent >= policy.minSends && Double(counts.approved) < policy.minConversion * Double(counts.sent)
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
            if !isRefused(remaining) { return max(1, Int((leaving + window - nowSeconds).rounded(.down)) + 1) }
            leaving += size
        }
        return policy.window  // not reached: once the current bucket leaves, nothing remains
    }

    public func recordSend(keys: [String], now: Date, in tx: any StoreTransaction) throws {
        guard policy.enabled else { return }
        for key in keys { try tx.addFraudCounts(key: key, bucket: bucket(now), sent: 1, approved: 0) }
    }

    public func recordApproval(keys: [String], now: Date, in tx: any StoreTransaction) throws {
        guard policy.enabled else { return }
        for key in keys { try tx.addFraudCounts(key: key, bucket: bucket(now), sent: 0, approved: 1) }
    }

    func bucket(_ now: Date) -> Date {
        let size = Double(policy.bucket)
        return Date(timeIntervalSince1970: (now.timeIntervalSince1970 / size).rounded(.down) * size)
    }

    func refusal(_ key: String, reason: String, retryAfter: Int) -> VerifyError {
        let kind = key.hasPrefix("country:") ? "country" : "prefix"
        // Not a quota: a pause over the guard's window, reported as a policy with no sends left
        // until the pause ends.
        let pause = RateLimitReport(
            policy: "fraud_" + kind,
            status: LimitStatus(rule: LimitRule(quota: 0, window: policy.window), remaining: 0, resetSeconds: retryAfter))
        return VerifyError(
            .suspectedFraud, "sending to this destination is paused: \(reason)",
            details: ["scope": .string(kind), "key": .string(String(key.drop { $0 != ":" }.dropFirst()))],
            retryAfter: retryAfter, rateLimit: pause)
    }
}
