import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// The failed-check lockout counts per number and requester (docs/ABUSE.md, "Failed checks"):
/// strangers cannot lock an owner out, and brute force stays bounded.
@Suite struct LockoutTests {
    /// `fraud: false` when a test sends more unconfirmed codes to one block than the guard admits.
    func service(_ limits: String = "", fraud: Bool = true) throws -> TestService {
        var policy = FraudPolicy()
        policy.enabled = fraud
        return TestService(protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: limits), fraud: policy))
    }

    func refusal(_ body: () throws -> Void) -> VerifyError? {
        do { try body() } catch let error as VerifyError { return error } catch { return nil }
        return nil
    }

    func wrong(_ t: TestService, _ id: String) throws -> String {
        try t.lastCode(for: id) == "000000" ? "111111" : "000000"
    }

    var mfaUser: Principal { Principal(subject: "user-alice", sessionID: "s1", authenticationMethods: ["pwd"]) }

    /// The attack of the security review, from many IPs: the owner signs in at once all the same.
    @Test func strangersWrongCodesNeverLockTheOwner() throws {
        let t = try service("phone_send=off;prefix_send=off", fraud: false)
        for ip in 0..<20 {
            let v = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "203.0.113.\(ip)")).verification
            for _ in 0..<5 { _ = refusal { _ = try t.service.check(id: v.id, code: try wrong(t, v.id), clientIP: "203.0.113.\(ip)") } }
        }
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "198.51.100.7")).verification
        let checked = try t.service.checkAndIssue(id: v.id, code: try t.lastCode(for: v.id), clientIP: "198.51.100.7")
        #expect(checked.verification.storedStatus == .approved)
    }

    /// Past the free failures, each wrong code doubles the requester's wait, up to the cap.
    @Test func theBackoffEscalatesAndIsCapped() throws {
        var policy = VerificationPolicy()
        policy.maxAttempts = 10
        policy.codeTTL = 3600
        let t = TestService(policy: policy, protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: "phone_send=off")))
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "a")).verification
        var waits: [Int] = []
        for _ in 1...10 {
            #expect(refusal { _ = try t.service.check(id: v.id, code: try wrong(t, v.id), clientIP: "a") }?.code == .incorrectCode)
            // A start by the same requester shows the wait (and counts no failure).
            let locked = refusal { _ = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "a")) }
            waits.append(locked?.code == .rateLimited ? locked?.retryAfter ?? -1 : 0)
            if locked?.code == .rateLimited {
                #expect(locked?.details["scope"] == "phone_lockout")
                t.clock.advance(TimeInterval(locked?.retryAfter ?? 0))
            }
        }
        #expect(waits == [0, 0, 0, 0, 0, 30, 60, 120, 240, 300])
    }

    @Test func aWaitingRequesterCannotCheckEither() throws {
        let t = try service("phone_failed_check=1/1d")
        let keep = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "a")).verification
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "a")).verification
        for _ in 0..<2 { _ = refusal { _ = try t.service.check(id: v.id, code: try wrong(t, v.id), clientIP: "a") } }
        let error = refusal { _ = try t.service.check(id: keep.id, code: try t.lastCode(for: keep.id), clientIP: "a") }
        #expect(error?.details["scope"] == "phone_lockout")
        #expect(error?.retryAfter == 30)
        // The same code from another client is accepted: the lock is the requester's, not the number's.
        #expect(try t.service.check(id: keep.id, code: try t.lastCode(for: keep.id), clientIP: "b").verification.storedStatus == .approved)
    }

    /// Twilio-compatible tenants call as servers (no client IP): each account is its own requester.
    @Test func oneTenantsWrongCodesDoNotLockAnother() throws {
        let t = try service("phone_failed_check=1/1d;ip_check=1/1h")
        let tenantA = AbuseProtection.serverCaller(account: "ACaaaa")
        let tenantB = AbuseProtection.serverCaller(account: "ACbbbb")
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: tenantB)).verification
        for _ in 0..<2 { _ = refusal { _ = try t.service.check(id: v.id, code: try wrong(t, v.id), clientIP: tenantA) } }
        #expect(refusal { _ = try t.service.check(id: v.id, code: try t.lastCode(for: v.id), clientIP: tenantA) }?.details["scope"] == "phone_lockout")
        #expect(try t.service.check(id: v.id, code: try t.lastCode(for: v.id), clientIP: tenantB).verification.storedStatus == .approved)
    }

    /// Anonymous activity on the number — wrong codes and a used-up send quota — never blocks the
    /// signed-in owner's challenge of their own factor, which has its own per-user quota.
    @Test func anonymousActivityNeverBlocksTheOwnersStepUp() throws {
        let t = try service("phone_send=2/1h;user_send=4/1h")
        let mfa = MFAService(
            verifications: t.service, store: t.store, clock: t.clock, random: t.random,
            issuer: CredentialIssuer(issuer: "http://issuer.test", audience: "main-auth", keys: FakeSigner(), random: t.random))
        let enrolment = try mfa.enroll(mfaUser, phoneNumber: "+15555550123", defaultRegion: nil, locale: nil, clientIP: "owner").verification
        let factor = try mfa.confirm(mfaUser, enrollmentID: enrolment.id, code: try t.lastCode(for: enrolment.id), clientIP: "owner")
        // A stranger uses the number's last send and fails checks from the owner's own IP.
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "owner")).verification
        for _ in 0..<5 { _ = refusal { _ = try t.service.check(id: v.id, code: try wrong(t, v.id), clientIP: "owner") } }
        #expect(refusal { _ = try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "other")) }?.details["scope"] == "phone")
        for _ in 0..<3 {  // the enrolment was the user's first send
            let (challenge, _) = try mfa.challenge(mfaUser, factorID: factor.id, locale: nil, clientIP: "owner")
            let verified = try mfa.verify(mfaUser, challengeID: challenge.verification.id, code: try t.lastCode(for: challenge.verification.id), clientIP: "owner")
            #expect(verified.verification.storedStatus == .approved)
        }
        // The user's own quota holds.
        let error = refusal { _ = try mfa.challenge(mfaUser, factorID: factor.id, locale: nil, clientIP: "owner") }
        #expect(error?.details["scope"] == "user")
    }

    /// docs/ABUSE.md: guesses at one number's codes per day are at most the number's daily send
    /// quota × checks per verification (10 × 5 = 50 by default), whatever the number of IPs.
    @Test func bruteForceIsBoundedPerNumberPerDay() throws {
        let t = try service()
        var guesses = 0
        var ip = 0
        for _ in 0..<(24 * 6) {  // a day in steps of 10 minutes
            while true {
                ip += 1
                guard let v = try? t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "10.0.\(ip / 256).\(ip % 256)")).verification
                else { break }
                for _ in 0..<10 {
                    guard refusal({ _ = try t.service.check(id: v.id, code: try wrong(t, v.id), clientIP: "10.9.\(ip / 256).\(ip % 256)") })?.code
                        == .incorrectCode
                    else { break }
                    guesses += 1
                }
            }
            t.clock.advance(600)
        }
        #expect(guesses == 10 * 5)
    }

    @Test func operatorsListAndClearLockouts() throws {
        let t = try service("phone_failed_check=1/1d")
        let admin = LockoutAdmin(store: t.store, clock: t.clock, limits: try RateLimits.defaults.overridden(by: "phone_failed_check=1/1d"))
        for (phone, ip) in [("+15555550123", "a"), ("+15555550123", "b"), ("+15555550124", "a")] {
            let v = try t.service.start(StartRequest(phoneNumber: phone, clientIP: ip)).verification
            for _ in 0..<2 { _ = refusal { _ = try t.service.check(id: v.id, code: try wrong(t, v.id), clientIP: ip) } }
        }
        let listed = try admin.list(phone: "+15555550123")
        #expect(listed.map(\.requester).sorted() == ["a", "b"])
        #expect(listed.allSatisfy { $0.failures == 2 && $0.lockedUntil == t.clock.now().addingTimeInterval(30) })
        #expect(try admin.list().count == 3)
        // A store may keep empty logs (PostgreSQL's placeholders for locking): not lockouts.
        try t.store.write { tx in
            try tx.setLimitEvents(key: LockoutPolicy.key(phone: "+15555550123", requester: "c"), events: [], expiresAt: Date())
        }
        #expect(try admin.clear(phone: "+15555550123") == 2)
        #expect(try admin.list().map(\.phoneNumber) == ["+15555550124"])
        #expect(try t.service.start(StartRequest(phoneNumber: "+15555550123", clientIP: "a")).replayed == false)
        #expect(refusal { _ = try admin.clear(phone: "15555550123") }?.code == .invalidPhoneNumber)
        // A wait that is over is still listed (its failures count towards the next wait), unlocked.
        t.clock.advance(31)
        #expect(try admin.list().first?.lockedUntil == nil)
    }
}
