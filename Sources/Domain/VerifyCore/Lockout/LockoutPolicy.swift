/// The failed-check lockout (docs/ABUSE.md, "Failed checks"). Wrong codes are counted per number
/// *and requester* — the client IP (IPv6: its /64), or the signed-in user for MFA — so a
/// stranger's wrong codes lock only the stranger, never the number's owner. Past `freeFailures`
/// failures within `window`, each further failure makes that requester wait before it may check
/// or ask for a code for that number again: `initialBackoff` seconds, doubling with each failure,
/// at most `maxBackoff`. Someone who shares the owner's IP can therefore delay the owner by at most
/// `maxBackoff` at a time; brute force stays bounded by the number's send quota (each
/// verification allows a few checks, and every verification costs a send).
public struct LockoutPolicy: Sendable, Equatable {
    public var freeFailures: Int
    public var window: Int
    public var initialBackoff: Int
    public var maxBackoff: Int

    public init(freeFailures: Int = 5, window: Int = 86_400, initialBackoff: Int = 30, maxBackoff: Int = 300) {
        self.freeFailures = freeFailures
        self.window = window
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
    }

    /// The rule reported in `RateLimit-Policy` (`phone_failed_check_1d`: N free failures a window).
    public var rule: LimitRule { LimitRule(quota: freeFailures, window: window) }

    /// The store key of one requester's failures on one number.
    public static func key(phone: String, requester: String) -> String {
        keyPrefix(phone: phone) + requester
    }

    /// The prefix of every requester's key for a number (what `lockout clear` deletes).
    public static func keyPrefix(phone: String) -> String { allKeysPrefix + phone + "|" }

    /// The prefix of every lockout key.
    public static let allKeysPrefix = "failed_check|"

    /// Seconds to wait after the `failures`-th failure in the window (0 while within the free ones).
    public func backoff(afterFailures failures: Int) -> Int {
        guard failures > freeFailures else { return 0 }
        var wait = max(1, initialBackoff)
        for _ in 0..<(failures - freeFailures - 1) {
            if wait >= maxBackoff { break }
            wait *= 2
        }
        return min(wait, maxBackoff)
    }

    /// Failure instants a log keeps: enough for the backoff to reach its cap.
    var keptEvents: Int {
        var doublings = 0
        var wait = max(1, initialBackoff)
        while wait < maxBackoff && doublings < 64 {
            wait *= 2
            doublings += 1
        }
        return freeFailures + doublings + 2
    }

    /// Failures of a log still counted at `now` (Unix ms), oldest first.
    func counted(_ events: [Int64], now: Int64) -> [Int64] {
        let start = now - Int64(window) * 1000
        return events.filter { $0 > start }
    }

    /// Where a log stands at `now`: exhausted (remaining 0) while the requester must wait, with
    /// the seconds left; otherwise the free failures left.
    public func status(_ events: [Int64], now: Int64) -> LimitStatus {
        let failures = counted(events, now: now)
        let wait = Int64(backoff(afterFailures: failures.count)) * 1000
        if let last = failures.last, wait > 0, now < last + wait {
            return LimitStatus(rule: rule, remaining: 0, resetSeconds: Int(max(1, (last + wait - now + 999) / 1000)))
        }
        let reset = failures.first.map { Int(max(1, ($0 + Int64(window) * 1000 - now + 999) / 1000)) } ?? 0
        // At or past the free failures but not waiting: one more check may pass, and its failure waits.
        return LimitStatus(rule: rule, remaining: max(1, freeFailures - failures.count), resetSeconds: reset)
    }

    /// The log after one more failure at `now`.
    public func recording(_ events: [Int64], now: Int64) -> [Int64] {
        var kept = counted(events, now: now)
        kept.append(now)
        kept.sort()
        return Array(kept.suffix(keptEvents))
    }
}
