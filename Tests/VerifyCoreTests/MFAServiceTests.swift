import Foundation
import Testing
import VerifyCore
import VerifyTesting

@Suite struct MFAServiceTests {
    let t = TestService()
    var mfa: MFAService {
        MFAService(
            verifications: t.service, store: t.store, clock: t.clock, random: t.random,
            issuer: CredentialIssuer(issuer: "http://issuer.test", audience: "main-auth", keys: FakeSigner(), random: t.random))
    }
    let alice = Principal(subject: "user-alice", sessionID: "sess-1", authenticationMethods: ["pwd"], authTime: Date(timeIntervalSince1970: 1_800_000_000))
    let bob = Principal(subject: "user-bob", sessionID: "sess-2", authenticationMethods: ["pwd"])
    /// Alice's own step-up credential of session 1, fresh.
    var aliceStepped: Principal {
        Principal(subject: "user-alice", sessionID: "sess-1", authenticationMethods: ["pwd", "sms", "mfa"], authTime: t.clock.now(),
                  acr: "aal2", isStepUpCredential: true)
    }

    func enrolled(_ who: Principal, _ phone: String = "+15555550123") throws -> Factor {
        let enrollment = try mfa.enroll(who, phoneNumber: phone, defaultRegion: nil, locale: nil, clientIP: "ip-\(who.subject)").verification
        #expect(enrollment.purpose == .mfaEnroll)
        #expect(enrollment.subject == who.subject)
        return try mfa.confirm(who, enrollmentID: enrollment.id, code: try t.lastCode(for: enrollment.id), clientIP: "x")
    }

    func refusal(_ body: () throws -> Void) -> VerifyError? {
        do { try body() } catch let error as VerifyError { return error } catch { return nil }
        return nil
    }

    @Test func enrolChallengeVerifyIssuesAStepUpCredential() throws {
        let factor = try enrolled(alice)
        #expect(factor.id.hasPrefix("fac_"))
        #expect(factor.phoneNumberHint == "+1*******0123")
        #expect(try mfa.factors(alice).map(\.id) == [factor.id])
        let (challenge, used) = try mfa.challenge(alice, factorID: factor.id, locale: nil, clientIP: "x")
        #expect(used == factor)
        #expect(challenge.verification.purpose == .mfaStepUp)
        let approved = try mfa.verify(alice, challengeID: challenge.verification.id, code: try t.lastCode(for: challenge.verification.id), clientIP: "x")
        let claims = try JWTParts.claims(try #require(approved.credential).token)
        #expect(claims["sub"] == "user-alice")
        #expect(claims["sid"] == "sess-1")
        #expect(claims["amr"] == ["pwd", "sms", "mfa"])
        #expect(claims["acr"] == "aal2")
        #expect(claims["auth_time"] == .int(Int64(t.clock.now().timeIntervalSince1970)))
        #expect(try mfa.factors(alice).first?.lastUsedAt == t.clock.now())
    }

    @Test func samePhoneTwiceIsAConflictAndFactorsAreCapped() throws {
        _ = try enrolled(alice)
        #expect(refusal { _ = try mfa.enroll(alice, phoneNumber: "+15555550123", defaultRegion: nil, locale: nil, clientIP: "x") }?.code == .factorExists)
        // Bob may enrol the same phone.
        _ = try enrolled(bob)
        var policy = MFAPolicy()
        policy.maxFactors = 2
        let capped = MFAService(verifications: t.service, store: t.store, clock: t.clock, random: t.random,
                                issuer: CredentialIssuer(issuer: "i", audience: "a", keys: FakeSigner(), random: t.random), policy: policy)
        let second = try capped.enroll(aliceStepped, phoneNumber: "+15555550124", defaultRegion: nil, locale: nil, clientIP: "y").verification
        _ = try capped.confirm(aliceStepped, enrollmentID: second.id, code: try t.lastCode(for: second.id), clientIP: "y")
        #expect(refusal { _ = try capped.enroll(aliceStepped, phoneNumber: "+15555550125", defaultRegion: nil, locale: nil, clientIP: "z") }?.code == .factorLimitReached)
    }

    /// Whoever holds only a password session must not add their own phone to a user who has a
    /// factor: stepping up with it, they could delete the user's real factor.
    @Test func aFurtherFactorNeedsARecentStepUp() throws {
        _ = try enrolled(alice)
        #expect(refusal { _ = try mfa.enroll(alice, phoneNumber: "+15555550124", defaultRegion: nil, locale: nil, clientIP: "x") }?.code == .stepUpRequired)
        let second = try mfa.enroll(aliceStepped, phoneNumber: "+15555550124", defaultRegion: nil, locale: nil, clientIP: "x").verification
        #expect(refusal { _ = try mfa.confirm(alice, enrollmentID: second.id, code: try t.lastCode(for: second.id), clientIP: "x") }?.code == .stepUpRequired)
        #expect(try mfa.factors(alice).count == 1)
        _ = try mfa.confirm(aliceStepped, enrollmentID: second.id, code: try t.lastCode(for: second.id), clientIP: "x")
        #expect(try mfa.factors(alice).count == 2)
    }

    /// Two enrolments started before either was confirmed: the second confirmation needs a step-up.
    @Test func confirmingAfterAFactorAppearedNeedsAStepUp() throws {
        let a = try mfa.enroll(alice, phoneNumber: "+15555550123", defaultRegion: nil, locale: nil, clientIP: "1").verification
        let b = try mfa.enroll(alice, phoneNumber: "+15555550124", defaultRegion: nil, locale: nil, clientIP: "2").verification
        _ = try mfa.confirm(alice, enrollmentID: a.id, code: try t.lastCode(for: a.id), clientIP: "1")
        #expect(refusal { _ = try mfa.confirm(alice, enrollmentID: b.id, code: try t.lastCode(for: b.id), clientIP: "2") }?.code == .stepUpRequired)
        #expect(try t.service.get(id: b.id, purposes: [.mfaEnroll]).status == .pending)
    }

    /// docs/MFA.md: the step-up credential is for the same `sub` and `sid` as the challenge.
    @Test func aChallengeIsVerifiedOnlyInItsOwnSession() throws {
        let factor = try enrolled(alice)
        let (challenge, _) = try mfa.challenge(alice, factorID: factor.id, locale: nil, clientIP: "x")
        let code = try t.lastCode(for: challenge.verification.id)
        let otherSession = Principal(subject: "user-alice", sessionID: "sess-other", authenticationMethods: ["otp"])
        #expect(refusal { _ = try mfa.verify(otherSession, challengeID: challenge.verification.id, code: code, clientIP: "x") }?.code == .notFound)
        let approved = try mfa.verify(alice, challengeID: challenge.verification.id, code: code, clientIP: "x")
        #expect(try JWTParts.claims(try #require(approved.credential).token)["sid"] == "sess-1")
    }

    @Test func anAuthTimeInTheFutureIsNotRecent() throws {
        let factor = try enrolled(alice)
        let future = Principal(subject: "user-alice", sessionID: "sess-1", authenticationMethods: ["pwd", "mfa"],
                               authTime: t.clock.now().addingTimeInterval(3600))
        #expect(refusal { _ = try mfa.deleteFactor(future, id: factor.id) }?.code == .stepUpRequired)
        let skewed = Principal(subject: "user-alice", sessionID: "sess-1", authenticationMethods: ["pwd", "mfa"],
                               authTime: t.clock.now().addingTimeInterval(30))
        #expect(try mfa.deleteFactor(skewed, id: factor.id).id == factor.id)
    }

    /// A lost phone removed by support: its pending challenge no longer steps anyone up.
    @Test func aChallengeOfADeletedFactorIsNotFound() throws {
        let factor = try enrolled(alice)
        let (challenge, _) = try mfa.challenge(alice, factorID: factor.id, locale: nil, clientIP: "x")
        _ = try mfa.deleteFactor(subject: "user-alice", id: factor.id)
        let code = try t.lastCode(for: challenge.verification.id)
        #expect(refusal { _ = try mfa.verify(alice, challengeID: challenge.verification.id, code: code, clientIP: "x") }?.code == .notFound)
        #expect(try t.service.get(id: challenge.verification.id, purposes: [.mfaStepUp]).status == .pending)
    }

    @Test func confirmingTwoEnrolmentsOfTheSamePhoneStoresOneFactor() throws {
        let a = try mfa.enroll(alice, phoneNumber: "+15555550123", defaultRegion: nil, locale: nil, clientIP: "1").verification
        let b = try mfa.enroll(alice, phoneNumber: "+15555550123", defaultRegion: nil, locale: nil, clientIP: "2").verification
        _ = try mfa.confirm(alice, enrollmentID: a.id, code: try t.lastCode(for: a.id), clientIP: "1")
        #expect(refusal { _ = try mfa.confirm(alice, enrollmentID: b.id, code: try t.lastCode(for: b.id), clientIP: "2") }?.code == .factorExists)
        #expect(try mfa.factors(alice).count == 1)
        // The refused confirmation did not consume the enrolment either.
        #expect(try t.service.get(id: b.id, purposes: [.mfaEnroll]).status == .pending)
    }

    @Test func otherUsersSeeNothing() throws {
        let factor = try enrolled(alice)
        #expect(try mfa.factors(bob).isEmpty)
        #expect(refusal { _ = try mfa.challenge(bob, factorID: factor.id, locale: nil, clientIP: "x") }?.code == .notFound)
        let (challenge, _) = try mfa.challenge(alice, factorID: factor.id, locale: nil, clientIP: "x")
        let code = try t.lastCode(for: challenge.verification.id)
        #expect(refusal { _ = try mfa.verify(bob, challengeID: challenge.verification.id, code: code, clientIP: "x") }?.code == .notFound)
        #expect(refusal { _ = try mfa.deleteFactor(subject: "user-bob", id: factor.id) }?.code == .notFound)
        // The challenge was not consumed by Bob's attempt.
        _ = try mfa.verify(alice, challengeID: challenge.verification.id, code: code, clientIP: "x")
    }

    @Test func mfaVerificationsAreNotFirstFactorOnesAndViceVersa() throws {
        let enrollment = try mfa.enroll(alice, phoneNumber: "+15555550123", defaultRegion: nil, locale: nil, clientIP: "x").verification
        #expect(refusal { _ = try t.service.checkAndIssue(id: enrollment.id, code: try t.lastCode(for: enrollment.id)) }?.code == .notFound)
        let plain = try t.service.start(StartRequest(phoneNumber: "+15555550199")).verification
        #expect(refusal { _ = try mfa.confirm(alice, enrollmentID: plain.id, code: try t.lastCode(for: plain.id), clientIP: "x") }?.code == .notFound)
    }

    @Test func deletingAFactorNeedsARecentStepUp() throws {
        let factor = try enrolled(alice)
        let stale = Principal(subject: "user-alice", authenticationMethods: ["pwd", "mfa"], authTime: t.clock.now().addingTimeInterval(-601))
        let error = refusal { _ = try mfa.deleteFactor(stale, id: factor.id) }
        #expect(error?.code == .stepUpRequired)
        #expect(error?.details["max_age"] == 600)
        #expect(refusal { _ = try mfa.deleteFactor(alice, id: factor.id) }?.code == .stepUpRequired)
        let notAAL2 = Principal(subject: "user-alice", authTime: t.clock.now(), acr: "aal1", isStepUpCredential: true)
        #expect(refusal { _ = try mfa.deleteFactor(notAAL2, id: factor.id) }?.code == .stepUpRequired)
        let fresh = Principal(subject: "user-alice", authenticationMethods: ["pwd", "sms", "mfa"], authTime: t.clock.now(), acr: "aal2", isStepUpCredential: true)
        #expect(refusal { _ = try mfa.deleteFactor(Principal(subject: "user-bob", authTime: t.clock.now(), acr: "aal2", isStepUpCredential: true), id: factor.id) }?.code == .notFound)
        #expect(try mfa.deleteFactor(fresh, id: factor.id) == factor)
        #expect(try mfa.factors(alice).isEmpty)
    }

    @Test func challengesHaveTheAttemptCapAndExpiry() throws {
        let factor = try enrolled(alice)
        let (challenge, _) = try mfa.challenge(alice, factorID: factor.id, locale: nil, clientIP: "x")
        let code = try t.lastCode(for: challenge.verification.id)
        let wrong = code == "000000" ? "111111" : "000000"
        for _ in 0..<5 { #expect(refusal { _ = try mfa.verify(alice, challengeID: challenge.verification.id, code: wrong, clientIP: "x") }?.code == .incorrectCode) }
        #expect(refusal { _ = try mfa.verify(alice, challengeID: challenge.verification.id, code: code, clientIP: "x") }?.code == .maxAttemptsReached)
        let (other, _) = try mfa.challenge(alice, factorID: factor.id, locale: nil, clientIP: "x")
        t.clock.advance(301)
        #expect(refusal { _ = try mfa.verify(alice, challengeID: other.verification.id, code: try t.lastCode(for: other.verification.id), clientIP: "x") }?.code == .expired)
    }
}
