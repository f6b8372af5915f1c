import Foundation
import Testing
import VerifyCore

@Suite struct SlidingWindowLogTests {
    let fivePerMinute = LimitRule(quota: 5, window: 60)

    @Test func burstUpToTheQuotaThenRefused() {
        var log = SlidingWindowLog(events: [])
        for i in 0..<5 {
            #expect(log.status(of: fivePerMinute, now: 1000).remaining == 5 - i)
            log.record(1000, rule: fivePerMinute)
        }
        let status = log.status(of: fivePerMinute, now: 1000)
        #expect(status.isExhausted)
        #expect(status.resetSeconds == 60)
    }

    @Test func windowEdgeIsExact() {
        var log = SlidingWindowLog(events: [])
        for t in [0, 10_000, 20_000, 30_000, 40_000] as [Int64] { log.record(t, rule: fivePerMinute) }
        // At 59.999 s the first event still counts; at 60 s it has left the window.
        #expect(log.status(of: fivePerMinute, now: 59_999).isExhausted)
        #expect(log.status(of: fivePerMinute, now: 59_999).resetSeconds == 1)
        #expect(log.status(of: fivePerMinute, now: 60_000).remaining == 1)
        #expect(log.status(of: fivePerMinute, now: 100_000).remaining == 5)
    }

    /// A request's `now` can be older than events already logged (taken before a lock wait or a
    /// retry, or another replica's clock): such an event expiring must not hide newer ones.
    @Test func anEventRecordedOutOfOrderDoesNotHideNewerOnes() {
        let fivePerHour = LimitRule(quota: 5, window: 3600)
        var log = SlidingWindowLog(events: [100_000, 101_000, 102_000, 103_000])
        log.record(97_000, rule: fivePerHour)
        #expect(log.events == [97_000, 100_000, 101_000, 102_000, 103_000])
        let later: Int64 = 97_000 + 3_600_000 + 1
        #expect(log.status(of: fivePerHour, now: later).remaining == 1)
        // A log stored unsorted (before this rule) is read in order.
        let stored = SlidingWindowLog(events: [100_000, 101_000, 102_000, 103_000, 97_000])
        #expect(stored.status(of: fivePerHour, now: later).remaining == 1)
        #expect(stored.status(of: fivePerHour, now: later).resetSeconds == 3)
    }

    @Test func neverMoreThanQuotaInAnyWindow() {
        var log = SlidingWindowLog(events: [])
        var accepted: [Int64] = []
        for t in stride(from: Int64(0), to: 600_000, by: 1_700) where !log.status(of: fivePerMinute, now: t).isExhausted {
            log.record(t, rule: fivePerMinute)
            accepted.append(t)
        }
        for (i, t) in accepted.enumerated() {
            let inWindow = accepted[i...].prefix { $0 < t + 60_000 }.count
            #expect(inWindow <= 5)
        }
        #expect(accepted.count >= 45)
    }

    @Test func logsStayBounded() {
        let rule = LimitRule(quota: 5, window: 3600)
        var log = SlidingWindowLog(events: [])
        for t in 0..<50 { log.record(Int64(t) * 1_800_000, rule: rule) }
        #expect(log.events.count <= 5)
    }

    /// Above 1,000 per window the log keeps 100 buckets: still never more than the quota in any
    /// window (it may count an event up to 1 % of the window too long), and bounded in size.
    @Test func largeQuotasUseBucketsAndStayStrict() {
        let rule = LimitRule(quota: 2000, window: 60)
        var log = SlidingWindowLog(events: [])
        var accepted: [Int64] = []
        for t in stride(from: Int64(0), to: 300_000, by: 7) where !log.status(of: rule, now: t).isExhausted {
            log.record(t, rule: rule)
            accepted.append(t)
        }
        #expect(log.events.count <= 2 + 2 * 102)
        var j = 0
        for (i, t) in accepted.enumerated() {
            while j < accepted.count && accepted[j] < t + 60_000 { j += 1 }
            #expect(j - i <= 2000)
        }
        // It does not under-use the quota by more than the 1 % bucket slack.
        #expect(accepted.count >= 2000 * 5 * 99 / 100 - 2000)
    }

    @Test(arguments: [("30s", 30), ("10m", 600), ("1h", 3600), ("1d", 86_400), ("45", 45)])
    func windows(text: String, seconds: Int) {
        #expect(RateLimits.parseWindow(text) == seconds)
        #expect(RateLimits.parseWindow(RateLimits.formatWindow(seconds)) == seconds)
    }

    @Test func limitsSyntax() throws {
        let limits = try RateLimits.defaults.overridden(by: "phone_send=5/1h, 10/1d ; ip_check=off;global_send=50/30s")
        #expect(limits.rules(.phoneSend) == [LimitRule(quota: 5, window: 3600), LimitRule(quota: 10, window: 86_400)])
        #expect(limits.rules(.ipCheck).isEmpty)
        #expect(limits.rules(.globalSend) == [LimitRule(quota: 50, window: 30)])
        #expect(limits.rules(.ipSend) == RateLimits.defaults.rules(.ipSend))
        for bad in ["phone=5/1h", "phone_send=5", "phone_send=0/1h", "phone_send=5/1y", "ip_send"] {
            #expect(throws: LimitSyntaxError.self) { try RateLimits.defaults.overridden(by: bad) }
        }
    }

    @Test func prefixes() {
        #expect(RateLimits.defaults.prefix(of: "+14155552671") == "+1415555")
        var six = RateLimits.defaults
        six.prefixDigits = 4
        #expect(six.prefix(of: "+447700900123") == "+4477")
    }
}
