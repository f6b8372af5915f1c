/// The sliding-window log behind one limit rule ("N per W") of one subject.
///
/// Up to `exactQuota` (1,000) it keeps the instants (Unix ms) of the last N events, newest last:
/// an event is allowed when fewer than N logged events fall in the last W seconds, so at no time
/// do more than N events fall in any window of W. Exact.
///
/// Above that (high-volume scopes such as a spend cap or a proxy's IP) keeping N instants would
/// cost too much per request, so it keeps counts in 100 buckets of W/100 each: an event is
/// counted until its whole bucket has left the window, i.e. up to 1 % of W too long — stricter,
/// never looser, than the exact rule.
/// Storage is bounded either way (≤ 1,000 or ≤ 200 integers).
public struct SlidingWindowLog: Sendable, Equatable {
    /// Quotas above this are counted in buckets.
    public static let exactQuota = 1000
    static let bucketMarker = Int64.min

    /// The stored form: instants, or `[marker, width, start1, count1, start2, count2, …]`.
    public private(set) var events: [Int64]

    /// Instants are kept in order even when recorded out of order (a request's `now` taken before
    /// a lock wait or a retry, clocks of replicas apart): counting walks back from the newest.
    public init(events: [Int64]) {
        self.events = events
        if !isBucketed, zip(events, events.dropFirst()).contains(where: { $0 > $1 }) { self.events.sort() }
    }

    private var isBucketed: Bool { events.first == Self.bucketMarker }

    /// Events after `now − window`.
    public func count(in window: Int, now: Int64) -> Int {
        let start = now - Int64(window) * 1000
        if isBucketed {
            var n: Int64 = 0
            var i = 2
            while i + 1 < events.count {
                if events[i] > start - bucketWidth { n += events[i + 1] }
                i += 2
            }
            return Int(n)
        }
        var n = 0
        for e in events.reversed() {
            if e > start { n += 1 } else { break }
        }
        return n
    }

    private var bucketWidth: Int64 { events.count > 1 ? events[1] : 1 }

    /// The state of `rule` at `now`.
    public func status(of rule: LimitRule, now: Int64) -> LimitStatus {
        let used = count(in: rule.window, now: now)
        let remaining = max(0, rule.quota - used)
        var reset = 0
        if used > 0 {
            // A slot frees when the oldest counted event (or bucket) leaves the window.
            let oldest: Int64
            if isBucketed {
                let start = now - Int64(rule.window) * 1000
                var first = now
                var i = 2
                while i + 1 < events.count {
                    if events[i] > start - bucketWidth { first = min(first, events[i] + bucketWidth) }
                    i += 2
                }
                oldest = first
            } else {
                // Past the quota (a log kept for a lifted quota, judged by a smaller one), a slot
                // frees when the event that made the count reach the quota leaves.
                oldest = used >= rule.quota && rule.quota > 0 ? events[events.count - rule.quota] : events[events.count - used]
            }
            reset = Int(max(1, (oldest + Int64(rule.window) * 1000 - now + 999) / 1000))
        }
        return LimitStatus(rule: rule, remaining: remaining, resetSeconds: reset)
    }

    /// A lockout's state ("N in W, then locked for W"): once N events fell within W of each other,
    /// locked until W after the one that reached N, however old the first ones get (no further
    /// events are recorded while locked). Without a lock, as `status`.
    public func lockStatus(of rule: LimitRule, now: Int64) -> LimitStatus {
        let window = Int64(rule.window) * 1000
        guard !isBucketed, rule.quota > 0, events.count >= rule.quota else { return status(of: rule, now: now) }
        let reached = events[events.count - 1]
        let first = events[events.count - rule.quota]
        guard reached - first < window, now < reached + window else { return status(of: rule, now: now) }
        return LimitStatus(rule: rule, remaining: 0, resetSeconds: Int(max(1, (reached + window - now + 999) / 1000)))
    }

    /// Adds an event at `now` for `rule`, keeping only what the rule can still need.
    public mutating func record(_ now: Int64, rule: LimitRule) {
        let horizon = now - Int64(rule.window) * 1000
        if rule.quota > Self.exactQuota {
            let width = max(1, Int64(rule.window) * 10)  // W/100 in ms
            if !isBucketed { events = [Self.bucketMarker, width] }
            let bucket = now - now % width
            var kept: [Int64] = [Self.bucketMarker, width]
            var added = false
            var i = 2
            while i + 1 < events.count {
                if events[i] > horizon - width {
                    kept.append(events[i])
                    kept.append(events[i + 1] + (events[i] == bucket ? 1 : 0))
                    if events[i] == bucket { added = true }
                }
                i += 2
            }
            if !added { kept.append(contentsOf: [bucket, 1]) }
            events = kept
            return
        }
        if isBucketed { events = [] }
        events.insert(now, at: events.lastIndex { $0 <= now }.map { $0 + 1 } ?? 0)
        if events.count > rule.quota { events.removeFirst(events.count - rule.quota) }
        while let first = events.first, first <= horizon { events.removeFirst() }
    }
}

/// The stored form of a log: little-endian Int64s, the same bytes in every store.
public enum EventCoding {
    public static func encode(_ events: [Int64]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(events.count * 8)
        for e in events { withUnsafeBytes(of: e.littleEndian) { out.append(contentsOf: $0) } }
        return out
    }

    public static func decode(_ bytes: [UInt8]) -> [Int64] {
        stride(from: 0, to: bytes.count - bytes.count % 8, by: 8).map { i in
            var v: Int64 = 0
            for j in 0..<8 { v |= Int64(bytes[i + j]) << (8 * j) }
            return v
        }
    }
}

/// Where one rule stands for one subject.
public struct LimitStatus: Sendable, Equatable {
    public let rule: LimitRule
    public let remaining: Int
    /// Seconds until one more event is allowed (0 when nothing is counted).
    public let resetSeconds: Int

    public var isExhausted: Bool { remaining == 0 }

    public init(rule: LimitRule, remaining: Int, resetSeconds: Int) {
        self.rule = rule
        self.remaining = remaining
        self.resetSeconds = resetSeconds
    }
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
