import Foundation
import Testing
@testable import VerifyCore
import VerifyTesting

/// The fraud guard's `Retry-After` tells the truth: a pause lasts until enough of the key's sends
/// have left the sliding window (absent new activity), not one bucket.
@Suite struct FraudRetryAfterTests {
    func service(minSends: Int) throws -> TestService {
        var fraud = FraudPolicy()
        fraud.minSends = minSends
        fraud.watchSends = 100  // the pause is what these tests measure, not the watched block's cap
        let limits = try RateLimits.defaults.overridden(by: "prefix_send=off;phone_send=off;ip_send=off;global_send=off")
        return TestService(protection: AbuseProtection(limits: limits, fraud: fraud))
    }

    func refusal(_ t: TestService, _ phone: String) -> VerifyError? {
        do { _ = try t.service.start(StartRequest(phoneNumber: phone)) } catch let error as VerifyError { return error } catch {}
        return nil
    }

    func send(_ t: TestService, count: Int, from first: Int) throws {
        for i in first..<(first + count) { _ = try t.service.start(StartRequest(phoneNumber: "+1666555\(String(format: "%04d", i))")) }
    }

    @Test func retryAfterLastsUntilTheKeyFallsUnderTheMinimumSends() throws {
        let t = try service(minSends: 10)
        // The manual clock starts on a bucket boundary (1_800_000_000 is a multiple of 300).
        try send(t, count: 4, from: 0)  // bucket A: [0, 300)
        t.clock.advance(600)
        try send(t, count: 6, from: 10)  // bucket C: [600, 900)
        t.clock.advance(300)  // now 900: 10 sends, none confirmed
        let error = refusal(t, "+16665559999")
        #expect(error?.code == .suspectedFraud)
        // Bucket A leaves the hour just after 3600; then 6 sends remain, under the minimum of 10.
        #expect(error?.retryAfter == 2701)
        #expect(error?.rateLimit?.status.resetSeconds == 2701)
        t.clock.advance(2700)
        #expect(refusal(t, "+16665559999")?.retryAfter == 1)
        t.clock.advance(1)
        #expect(refusal(t, "+16665559999") == nil)
    }

    /// With approvals, conversion decides too: here two buckets must leave before the key is
    /// under the minimum (the counters are written directly, as a lowered minimum would leave them).
    @Test func retryAfterCountsEveryBucketThatMustLeave() throws {
        var policy = FraudPolicy()
        policy.minSends = 4
        let guardian = FraudGuard(policy: policy)
        let store = InMemoryStore()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        try store.write { tx in
            for offset in [0.0, 300, 600] { try tx.addFraudCounts(key: "country:NG", bucket: start + offset, sent: 2, approved: 0) }
        }
        // Now is 900: 6 sends. 4 remain after the bucket at 0 leaves (just after 3600), 2 after
        // the one at 300 leaves (just after 3900).
        #expect(try store.read { try guardian.pauseSeconds(key: "country:NG", now: start + 900, in: $0) } == 3001)
        // Enough approvals in the newest bucket lift the pause as soon as the oldest leaves.
        try store.write { tx in try tx.addFraudCounts(key: "country:NG", bucket: start + 600, sent: 0, approved: 1) }
        #expect(try store.read { try guardian.pauseSeconds(key: "country:NG", now: start + 900, in: $0) } == 2701)
    }

    /// An operator's block has no end: Retry-After is the guard's window (documented in ABUSE.md).
    @Test func anOperatorBlockAnswersTheWindow() throws {
        let t = try service(minSends: 10)
        try FraudAdmin(store: t.store, clock: t.clock, policy: FraudPolicy()).setOverride(key: "country:US", action: .block)
        let error = refusal(t, "+14155552671")
        #expect(error?.code == .suspectedFraud)
        #expect(error?.retryAfter == 3600)
    }
}
