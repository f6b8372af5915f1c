import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// When a start needs a challenge, what a passed one lifts, and what it never lifts
/// (docs/CHALLENGES.md).
@Suite struct ChallengePolicyTests {
    func service(_ mode: ChallengeMode, limits: String = "", fraud: FraudPolicy = FraudPolicy()) throws -> TestService {
        let limits = try RateLimits.defaults.overridden(by: limits)
        return TestService(protection: AbuseProtection(limits: limits, fraud: fraud), challenges: (mode, [FakeChallengeVerifier()]))
    }

    func start(_ t: TestService, _ phone: String, _ token: String? = nil, ip: String = "198.51.100.1", key: String? = nil) throws -> Verification {
        try t.service.start(StartRequest(
            phoneNumber: phone, clientIP: ip, idempotencyKey: key,
            challenge: token.map { ChallengeSubmission(provider: "fake", token: $0) })).verification
    }

    func refusal(_ body: () throws -> Void) -> VerifyError? {
        do { try body() } catch let error as VerifyError { return error } catch {}
        return nil
    }

    @Test func alwaysAsksAndAcceptsATokenOnce() throws {
        let t = try service(.always)
        let asked = refusal { _ = try start(t, "+14155550100") }
        #expect(asked?.code == .challengeRequired)
        #expect(asked?.reasons == ["always"])
        #expect(asked?.details["providers"] == [["name": "fake", "site_key": "site-fake"]])
        // Why is the service's business: a stranger must not read a number's activity from it.
        #expect(asked?.details["reasons"] == nil)
        #expect(t.store.messages.isEmpty)
        _ = try start(t, "+14155550100", "pass-1")
        #expect(refusal { _ = try start(t, "+14155550101", "pass-1") }?.code == .challengeFailed)
        #expect(refusal { _ = try start(t, "+14155550101", "fail-1") }?.code == .challengeFailed)
        #expect(refusal { _ = try start(t, "+14155550101", "garbage") }?.code == .invalidRequest)
        #expect(refusal { _ = try start(t, "+14155550101", "pass-+1999") }?.code == .challengeFailed)
        #expect(t.store.messages.count == 1)
        let counted = t.events.events.compactMap { event -> String? in
            if case .challenge(_, let outcome) = event { return outcome } else { return nil }
        }
        #expect(counted == ["asked", "passed", "failed", "failed", "failed"])
        #expect(t.events.events.contains(.challengeReason("always")))
    }

    @Test func anUnknownProviderIsABadRequest() throws {
        let t = try service(.always)
        let error = refusal {
            _ = try t.service.start(StartRequest(phoneNumber: "+14155550100", challenge: ChallengeSubmission(provider: "turnstile", token: "x")))
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("fake") == true)
    }

    /// A client that lost the answer retries with the same key and token: it gets its
    /// verification back, not a replay refusal, and nothing is sent twice.
    @Test func anIdempotentRetryWithItsUsedTokenIsAReplay() throws {
        let t = try service(.always)
        let first = try start(t, "+14155550100", "pass-a", key: "k1")
        let again = try t.service.start(StartRequest(
            phoneNumber: "+14155550100", clientIP: "198.51.100.1", idempotencyKey: "k1",
            challenge: ChallengeSubmission(provider: "fake", token: "pass-a")))
        #expect(again.replayed && again.verification.id == first.id)
        #expect(t.store.messages.count == 1)
    }

    @Test func suspiciousAsksNothingOfAnOrdinaryStart() throws {
        let t = try service(.suspicious)
        _ = try start(t, "+14155550100")
        _ = try start(t, "+447700900123", ip: "198.51.100.2")
        #expect(t.store.messages.count == 2)
    }

    /// The owner of a number whose quota strangers used up passes a challenge instead of waiting
    /// an hour. A captcha lifts the number's quota halfway to twice it, one requester at most its
    /// share of that; device-bound proof or a grant goes on to twice the quota, past what strangers
    /// with captchas spent (docs/ABUSE.md, "A number's quota is no stranger's to spend").
    @Test func aCaptchaLiftsANumbersQuotaHalfwayAndAGrantToTwice() throws {
        let t = TestService(
            protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: "phone_send=4/1h;ip_send=off")),
            challenges: (.suspicious, [FakeChallengeVerifier(), FakeChallengeVerifier(provider: "grant")]))
        func start(_ token: String?, ip: String, provider: String = "fake") throws -> Verification {
            try t.service.start(StartRequest(
                phoneNumber: "+14155550100", clientIP: ip, challenge: token.map { ChallengeSubmission(provider: provider, token: $0) })).verification
        }
        _ = try start(nil, ip: "203.0.113.1")
        _ = try start(nil, ip: "203.0.113.2")
        // Half the quota used: soft threshold.
        #expect(refusal { _ = try start(nil, ip: "203.0.113.3") }?.reasons == ["phone_send_soft"])
        _ = try start("pass-a", ip: "203.0.113.3")
        _ = try start("pass-b", ip: "203.0.113.4")
        // (One of the number's own codes never counts against it in its block's volume.)
        #expect(refusal { _ = try start(nil, ip: "198.51.100.9") }?.reasons == ["phone_send_exhausted", "block_watched"])
        _ = try start("pass-s1", ip: "203.0.113.5")
        // One requester gets only its share of what is lifted (phone_requester_send, 1 an hour).
        let share = refusal { _ = try start("pass-s2", ip: "203.0.113.5") }
        #expect(share?.code == .rateLimited)
        #expect(share?.message.contains("share") == true)
        _ = try start("pass-s3", ip: "203.0.113.6")
        // Captchas reach 6 (4 + half of 4 more), whoever solves them: not the owner's either. Only a
        // grant goes further now, so that is what is asked (not a wait of an hour).
        let capped = refusal { _ = try start("pass-owner", ip: "198.51.100.9") }
        #expect(capped?.code == .challengeRequired)
        #expect(capped?.reasons == ["captcha_share_exhausted"])
        #expect(capped?.details["providers"] == [["name": "grant", "site_key": "site-grant"]])
        // The owner's backend vouches for the number: twice the quota, past the strangers' captchas.
        _ = try start("pass-+14155550100-g1", ip: "198.51.100.9", provider: "grant")
        _ = try start("pass-+14155550100-g2", ip: "198.51.100.10", provider: "grant")
        #expect(refusal { _ = try start("pass-+14155550100-g3", ip: "198.51.100.11", provider: "grant") }?.code == .rateLimited)
        #expect(t.store.messages.count == 8)
    }

    /// Sign-in is the anonymous door; MFA and test numbers never ask.
    @Test func onlyAnonymousSignInIsAsked() throws {
        let limits = RateLimits.defaults
        let t = TestService(
            protection: AbuseProtection(limits: limits, testNumbers: TestNumbers(codes: ["+15550001111": "123456"])),
            challenges: (.always, [FakeChallengeVerifier()]))
        _ = try t.service.start(StartRequest(phoneNumber: "+15550001111"))
        _ = try t.service.start(StartRequest(phoneNumber: "+14155550100", purpose: .mfaStepUp, subject: "user-1", sessionID: "s"))
        _ = try t.service.start(StartRequest(phoneNumber: "+14155550101", purpose: .mfaEnroll, subject: "user-1", sessionID: "s"))
        #expect(refusal { _ = try t.service.start(StartRequest(phoneNumber: "+14155550102")) }?.code == .challengeRequired)
    }

    @Test func aResendNeedsProofAsAStartDoes() throws {
        let t = try service(.always)
        let v = try start(t, "+14155550100", "pass-a")
        t.clock.advance(31)
        #expect(refusal { _ = try t.service.resend(id: v.id, clientIP: "198.51.100.1") }?.code == .challengeRequired)
        _ = try t.service.resend(id: v.id, clientIP: "198.51.100.1", challenge: ChallengeSubmission(provider: "fake", token: "pass-+14155550100-b"))
        #expect(t.store.messages.count == 2)
    }

    @Test func offIgnoresChallenges() throws {
        let t = TestService(challenges: (.off, [FakeChallengeVerifier()]))
        _ = try t.service.start(StartRequest(phoneNumber: "+14155550100", challenge: ChallengeSubmission(provider: "nope", token: "x")))
        #expect(t.store.messages.count == 1)
    }

    /// Each submitted token costs a vendor call: a client gets `ip_challenge` of them.
    @Test func submittedChallengesAreCountedPerClient() throws {
        let t = try service(.always, limits: "ip_challenge=3/10m")
        for n in 0..<3 { #expect(refusal { _ = try start(t, "+1415555010\(n)", "fail-\(n)") }?.code == .challengeFailed) }
        let limited = refusal { _ = try start(t, "+14155550109", "pass-late") }
        #expect(limited?.code == .rateLimited)
        #expect(limited?.details["scope"] == "ip")
        // Not verified: the token is still unused, and another client may use it.
        _ = try start(t, "+14155550109", "pass-late", ip: "198.51.100.2")
    }
}
