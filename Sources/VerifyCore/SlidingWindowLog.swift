/// The sliding-window log behind every limit: the instants (Unix ms) of the most recent events
/// of one subject, newest last, at most as many as the largest quota. A rule "N per W" allows an
/// event when fewer than N logged events fall in the last W seconds; so at no time do more than
/// N events fall in any window of W. Exact, and O(largest quota) per subject.
public struct SlidingWindowLog: Sendable, Equatable {
    public private(set) var events: [Int64]

    public init(events: [Int64]) {
        self.events = events
    }

    /// Events after `now − window`.
    public func count(in window: Int, now: Int64) -> Int {
        let start = now - Int64(window) * 1000
        var n = 0
        for e in events.reversed() {
            if e > start { n += 1 } else { break }
        }
        return n
    }

    /// The state of one rule at `now`.
    public func status(of rule: LimitRule, now: Int64) -> LimitStatus {
        let used = count(in: rule.window, now: now)
        let remaining = max(0, rule.quota - used)
        // A slot frees when the oldest event counted in the window leaves it.
        var reset = 0
        if used > 0 {
            let oldestCounted = events[events.count - used]
            reset = Int(max(1, (oldestCounted + Int64(rule.window) * 1000 - now + 999) / 1000))
        }
        return LimitStatus(rule: rule, remaining: remaining, resetSeconds: reset)
    }

    /// Adds an event at `now`, keeping only what the rules can still need.
    public mutating func record(_ now: Int64, rules: [LimitRule]) {
        events.append(now)
        let keep = rules.map(\.quota).max() ?? 0
        if events.count > keep { events.removeFirst(events.count - keep) }
        let horizon = now - Int64(rules.map(\.window).max() ?? 0) * 1000
        while let first = events.first, first <= horizon { events.removeFirst() }
    }
}

/// Where one rule stands for one subject.
public struct LimitStatus: Sendable, Equatable {
    public let rule: LimitRule
    public let remaining: Int
    /// Seconds until one more event is allowed (0 when nothing is counted).
    public let resetSeconds: Int

    public var isExhausted: Bool { remaining == 0 }
}

/// What `RateLimit-Policy` and `RateLimit` report: one named policy and its live counters.
public struct RateLimitReport: Sendable, Equatable {
    public let policy: String
    public let status: LimitStatus

    public init(policy: String, status: LimitStatus) {
        self.policy = policy
        self.status = status
    }

    /// The report of the rule closest to its limit (smallest remaining share of its quota).
    public static func closest(_ reports: [RateLimitReport]) -> RateLimitReport? {
        reports.min { a, b in
            Double(a.status.remaining) / Double(max(1, a.status.rule.quota))
                < Double(b.status.remaining) / Double(max(1, b.status.rule.quota))
        }
    }
}
