import Foundation
import Testing
import VerifyCore
import VerifyTesting

@Suite struct AbuseProtectionTests {
    func service(_ limits: String = "", fraud: FraudPolicy = FraudPolicy(), tests: TestNumbers = TestNumbers()) throws -> TestService {
        TestService(protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: limits), fraud: fraud, testNumbers: tests))
    }

    func refusal(_ body: () throws -> Void) -> VerifyError? {
        do { try body() } catch let error as VerifyError { return error } catch { return nil }
        return nil
    }

    @Test func phoneSendLimitRefusesTheSixthWithScopeAndRetryAfter() throws {
        let t = try service()
        for i in 0..<5 {
            let outcome = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "10.0.0.\(i)"))
            #expect(outcome.rateLimit != nil)
        }
        t.clock.advance(100)
        let error = refusal { _ = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "10.0.0.9")) }
        #expect(error?.code == .rateLimited)
        #expect(error?.details["scope"] == "phone")
        #expect(error?.retryAfter == 3500)
        #expect(error?.rateLimit?.policy == "phone_send_1h")
        #expect(t.store.messages.count == 5)
        t.clock.advance(3500)
        #expect(try t.service.start(StartRequest(phoneNumber: "+15555550123")).replayed == false)
    }

    /// With several rules exhausted, the refusal names the one that holds longest: Retry-After is
    /// when a request passes every rule, not when the shortest one frees.
    @Test func theRefusalNamesTheRuleThatHoldsLongest() throws {
        let t = try service("phone_send=1/20s,2/1h")
        _ = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "a"))
        t.clock.advance(21)
        _ = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "b"))
        t.clock.advance(1)
        let error = refusal { _ = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "c")) }
        #expect(error?.rateLimit?.policy == "phone_send_1h")
        #expect(error?.retryAfter == 3600 - 22)
    }

    /// The lockout is judged with the send limits: a longer send limit wins over a shorter lock.
    @Test func aLongerSendLimitWinsOverAShorterLockout() throws {
        let t = try service("phone_failed_check=1/1h;phone_send=2/1d")
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "a")).verification
        _ = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "b"))
        let wrong = try t.lastCode(for: v.id) == "000000" ? "111111" : "000000"
        for _ in 0..<2 { _ = refusal { _ = try t.service.check(id: v.id, code: wrong) } }
        let error = refusal { _ = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "c")) }
        #expect(error?.rateLimit?.policy == "phone_send_1d")
        #expect(error?.retryAfter == 86_400)
    }

    @Test func aRefusalConsumesNoQuotaElsewhere() throws {
        var fraud = FraudPolicy()
        fraud.watchSends = 100  // seven unconfirmed codes to one block: not what this test is about
        let t = try service("ip_send=2/10m", fraud: fraud)
        _ = try t.service.start(StartRequest(phoneNumber: "+15555550001", clientIP: "a"))
        _ = try t.service.start(StartRequest(phoneNumber: "+15555550002", clientIP: "a"))
        let error = refusal { _ = try t.service.start(StartRequest(phoneNumber: "+15555550003", clientIP: "a")) }
        #expect(error?.details["scope"] == "ip")
        // The refused number's own quota is untouched: it still has 5 sends from another client.
        for n in 0..<5 { _ = try t.service.start(StartRequest(phoneNumber: "+15555550003", clientIP: "b\(n)")) }
    }

    @Test func prefixAndGlobalLimits() throws {
        let t = try service("prefix_send=3/1h;global_send=5/1m")
        for n in 0..<3 { _ = try t.service.start(StartRequest(phoneNumber: "+1555555010\(n)", clientIP: "c\(n)")) }
        #expect(refusal { _ = try t.service.start(StartRequest(phoneNumber: "+15555550109", clientIP: "x")) }?.details["scope"] == "prefix")
        for n in 0..<2 { _ = try t.service.start(StartRequest(phoneNumber: "+1666555010\(n)", clientIP: "d\(n)")) }
        #expect(refusal { _ = try t.service.start(StartRequest(phoneNumber: "+17775550100", clientIP: "y")) }?.details["scope"] == "global")
        t.clock.advance(60)
        _ = try t.service.start(StartRequest(phoneNumber: "+17775550100", clientIP: "y"))
    }

    @Test func aLockedOutNumberGetsNoResendOnAnOlderVerification() throws {
        var policy = VerificationPolicy()
        policy.resendCooldown = 0
        let t = TestService(policy: policy, protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: "phone_failed_check=1/1d")))
        let older = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        let newer = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        for _ in 0..<2 { _ = try? t.service.check(id: newer.id, code: "000000") }
        let sent = t.store.messages.count
        let refused = refusal { _ = try t.service.resend(id: older.id) }
        #expect(refused?.code == .rateLimited && refused?.details["scope"] == "phone_lockout")
        #expect(t.store.messages.count == sent)  // nothing queued
    }

    /// Refusals are counted where they happen, so every API (native, MFA, Twilio-compatible) shows
    /// up in `phoneverify_refusals_total`.
    @Test func refusedStartsResendsAndChecksAreCounted() throws {
        var policy = VerificationPolicy()
        policy.resendCooldown = 0
        let t = TestService(
            policy: policy, protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: "phone_send=2/1h;ip_check=1/10m")))
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        _ = try t.service.resend(id: v.id)
        #expect(refusal { _ = try t.service.resend(id: v.id) }?.code == .rateLimited)
        #expect(refusal { _ = try t.service.start(StartRequest(phoneNumber: "+15555550123")) }?.code == .rateLimited)
        _ = try? t.service.check(id: v.id, code: "000000", clientIP: "10.0.0.1")
        #expect(refusal { _ = try t.service.check(id: v.id, code: "000000", clientIP: "10.0.0.1") }?.code == .rateLimited)
        #expect(t.events.refusals == ["rate_limited/phone", "rate_limited/phone", "rate_limited/ip"])
    }

    @Test func resendsCountAsSends() throws {
        var policy = VerificationPolicy()
        policy.resendCooldown = 0
        let t = TestService(policy: policy, protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: "phone_send=3/1h")))
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        _ = try t.service.resend(id: v.id)
        _ = try t.service.resend(id: v.id)
        #expect(t.notifier.superseded == [v.id, v.id])  // each resend replaces the message before it
        #expect(refusal { _ = try t.service.resend(id: v.id) }?.code == .rateLimited)
        #expect(t.notifier.superseded == [v.id, v.id])  // a refused resend supersedes nothing
    }

    /// A wrong code's answer reports the rule closest to refusing: near a lockout, the lockout.
    @Test func wrongCodesWarnOfTheComingLockout() throws {
        let t = try service("phone_failed_check=3/1h")
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        let wrong = try t.lastCode(for: v.id) == "000000" ? "111111" : "000000"
        _ = refusal { _ = try t.service.check(id: v.id, code: wrong) }
        let second = refusal { _ = try t.service.check(id: v.id, code: wrong) }
        #expect(second?.rateLimit?.policy == "phone_failed_check_1h")
        #expect(second?.rateLimit?.status.remaining == 1)
    }

    @Test func lockoutAlsoRefusesChecksOfPendingVerifications() throws {
        let t = try service("phone_failed_check=1/1d")
        let keep = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        let wrong = try t.lastCode(for: v.id) == "000000" ? "111111" : "000000"
        _ = refusal { _ = try t.service.check(id: v.id, code: wrong) }
        _ = refusal { _ = try t.service.check(id: v.id, code: wrong) }
        let error = refusal { _ = try t.service.check(id: keep.id, code: try t.lastCode(for: keep.id)) }
        #expect(error?.details["scope"] == "phone_lockout")
    }

    @Test func checksPerIP() throws {
        let t = try service("ip_check=3/10m")
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        for _ in 0..<3 { _ = refusal { _ = try t.service.check(id: v.id, code: "999999", clientIP: "brute") } }
        let error = refusal { _ = try t.service.check(id: v.id, code: "999999", clientIP: "brute") }
        #expect(error?.details["scope"] == "ip")
        // The refused guess was not counted against the verification.
        #expect(try t.service.get(id: v.id).verification.attempts == 3)
    }

    /// A test number sends nothing and is not judged by the IP, block, spend or fraud limits, but
    /// each of its verifications allows more guesses at its fixed code, so its starts count
    /// against the number's own quota (docs/ABUSE.md, brute-force bound); check limits apply.
    @Test func testNumbersSendNothingAndCountOnlyAgainstTheNumbersQuota() throws {
        let t = try service("phone_send=7/1h;ip_send=1/1h;global_send=1/1h", tests: TestNumbers(codes: ["+15555550100": "123456"]))
        for _ in 0..<5 {
            let v = try t.service.start(StartRequest(phoneNumber: "+1 555-555-0100")).verification
            #expect(v.phoneNumber == "+15555550100")
        }
        #expect(t.store.messages.isEmpty)
        #expect(t.notifier.count == 0)
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550100")).verification
        for _ in 0..<5 { _ = refusal { _ = try t.service.check(id: v.id, code: "000000") } }
        #expect(refusal { _ = try t.service.check(id: v.id, code: "123456") }?.code == .maxAttemptsReached)
        let fresh = try t.service.start(StartRequest(phoneNumber: "+15555550100", clientIP: "elsewhere")).verification
        #expect(try t.service.checkAndIssue(id: fresh.id, code: "123456", clientIP: "elsewhere").verification.storedStatus == .approved)
        #expect(refusal { _ = try t.service.start(StartRequest(phoneNumber: "+15555550100", clientIP: "elsewhere")) }?.details["scope"] == "phone")
    }

    /// A test number written in national format (or any form the parser understands) is still the
    /// test number: no real SMS, the fixed code; and after the expiry it is refused, not sent.
    @Test func testNumbersAreRecognisedInEveryWrittenForm() throws {
        let t = try service(tests: TestNumbers(codes: ["+14155550199": "123456"], expiresAt: Date(timeIntervalSince1970: 1_800_000_100)))
        let v = try t.service.start(StartRequest(phoneNumber: "(415) 555-0199", defaultRegion: "US")).verification
        #expect(v.phoneNumber == "+14155550199")
        #expect(t.store.messages.isEmpty)
        #expect(try t.service.check(id: v.id, code: "123456").verification.storedStatus == .approved)
        t.clock.advance(100)
        #expect(refusal { _ = try t.service.start(StartRequest(phoneNumber: "415 555 0199", defaultRegion: "US")) }?.code == .forbidden)
        #expect(t.store.messages.isEmpty)
    }

    @Test func expiredTestNumbersAreRefused() throws {
        let t = try service(tests: TestNumbers(codes: ["+15555550100": "123456"], expiresAt: Date(timeIntervalSince1970: 1_800_000_100)))
        let pending = try t.service.start(StartRequest(phoneNumber: "+15555550100")).verification
        t.clock.advance(100)
        #expect(refusal { _ = try t.service.start(StartRequest(phoneNumber: "+15555550100")) }?.code == .forbidden)
        // A test verification left pending at the expiry can neither be resent nor approved.
        #expect(refusal { _ = try t.service.resend(id: pending.id) }?.code == .forbidden)
        #expect(refusal { _ = try t.service.checkAndIssue(id: pending.id, code: "123456") }?.code == .forbidden)
        #expect(refusal { _ = try t.service.approve(id: pending.id) }?.code == .forbidden)
        #expect(try t.service.get(id: pending.id).status == .pending)
    }

    /// Nothing is sent to a test number, so its approval is no conversion: approving test numbers
    /// must not lift the fraud guard's refusal of their country (it would cost the attacker nothing).
    @Test func testNumberApprovalsDoNotCountAsConversions() throws {
        var fraud = FraudPolicy()
        fraud.minSends = 3
        let t = try service("prefix_send=off;phone_send=off;ip_send=off", fraud: fraud,
                            tests: TestNumbers(codes: ["+16665550100": "123456", "+16665550101": "123456"]))
        for n in 0..<3 { _ = try t.service.start(StartRequest(phoneNumber: "+1666555\(String(format: "%04d", 9000 + n))")) }
        #expect(refusal { _ = try t.service.start(StartRequest(phoneNumber: "+16665559999")) }?.code == .suspectedFraud)
        let checked = try t.service.start(StartRequest(phoneNumber: "+16665550100")).verification
        _ = try t.service.check(id: checked.id, code: "123456")
        let approved = try t.service.start(StartRequest(phoneNumber: "+16665550101")).verification
        _ = try t.service.approve(id: approved.id)
        let stats = try FraudAdmin(store: t.store, clock: t.clock, policy: fraud).stats()
        #expect(stats.first { $0.key == "prefix:+1666555" }?.approved == 0)
        #expect(refusal { _ = try t.service.start(StartRequest(phoneNumber: "+16665559999")) }?.code == .suspectedFraud)
    }

    @Test func lowConversionPrefixIsRefusedUntilAllowedOrRecovered() throws {
        var fraud = FraudPolicy()
        fraud.minSends = 10
        fraud.floor = 100  // the watched block's volume cap is tested on its own (FraudVolumeCapTests)
        let t = try service("prefix_send=off;phone_send=off;ip_send=off", fraud: fraud)
        for n in 0..<10 { _ = try t.service.start(StartRequest(phoneNumber: "+1666555\(String(format: "%04d", n))")) }
        let error = refusal { _ = try t.service.start(StartRequest(phoneNumber: "+16665559999")) }
        #expect(error?.code == .suspectedFraud)
        #expect(error?.details["scope"] == "prefix")
        #expect(error?.retryAfter == 3601)  // every send is in the bucket that leaves the hour last
        #expect(error?.details["reason"]?.stringValue?.contains("too few codes to this block are confirmed") == true)
        // The country (US) has the same poor conversion, but one anomalous block from one client
        // does not pause a country: its other blocks, and other countries, are unaffected.
        _ = try t.service.start(StartRequest(phoneNumber: "+15555550123"))
        _ = try t.service.start(StartRequest(phoneNumber: "+447700900123"))
        let admin = FraudAdmin(store: t.store, clock: t.clock, policy: fraud)
        let verdicts = try admin.verdicts()
        #expect(verdicts.contains { $0.stat.key == "prefix:+1666555" && $0.verdict.state == .paused && FraudAdmin.isRefused($0.verdict) })
        #expect(verdicts.contains { $0.stat.key == "country:US" && $0.verdict.state == .watched && !FraudAdmin.isRefused($0.verdict) })
        #expect(!verdicts.contains { $0.stat.key.hasPrefix("seen:") || $0.stat.key.hasPrefix("clients:") })
        try admin.setOverride(key: "prefix:+1666555", action: .allow)
        try admin.setOverride(key: "country:US", action: .allow)
        _ = try t.service.start(StartRequest(phoneNumber: "+16665559999"))
        try admin.setOverride(key: "prefix:+1666555", action: nil)
        #expect(refusal { _ = try t.service.start(StartRequest(phoneNumber: "+16665559998")) }?.code == .suspectedFraud)
        // After the window the old sends no longer count.
        t.clock.advance(3601)
        _ = try t.service.start(StartRequest(phoneNumber: "+16665559998"))
    }

    /// A block converting as it usually does, at its usual volume, is never refused.
    @Test func healthyConversionIsNeverRefused() throws {
        var fraud = FraudPolicy()
        fraud.minSends = 10
        fraud.baseline = 3600
        let t = try service("prefix_send=off;phone_send=off;ip_send=off", fraud: fraud)
        // Its usual hour: 40 codes, all confirmed; this hour: a third left unconfirmed. The block
        // is watched (unconfirmed codes far above none usually) but admits its usual volume.
        for hour in 0..<2 {
            for n in 0..<40 {
                let v = try t.service.start(StartRequest(phoneNumber: "+1777555\(String(format: "%02d%02d", hour, n))")).verification
                if hour == 0 || n % 3 != 0 { _ = try t.service.check(id: v.id, code: try t.lastCode(for: v.id)) }
            }
            t.clock.advance(hour == 0 ? 3900 : 0)  // the first hour's bucket leaves the window
        }
        let verdict = try FraudAdmin(store: t.store, clock: t.clock, policy: fraud).verdicts().first { $0.stat.key == "prefix:+1777555" }
        #expect(verdict?.verdict.state == .watched)
    }

    @Test func operatorsCanBlockACountry() throws {
        let t = try service()
        let admin = FraudAdmin(store: t.store, clock: t.clock, policy: FraudPolicy())
        try admin.setOverride(key: "country:GB", action: .block)
        let error = refusal { _ = try t.service.start(StartRequest(phoneNumber: "+447700900123")) }
        #expect(error?.code == .suspectedFraud)
        #expect(error?.details["scope"] == "country")
        #expect(throws: VerifyError.self) { try admin.setOverride(key: "nonsense", action: .block) }
    }
}
