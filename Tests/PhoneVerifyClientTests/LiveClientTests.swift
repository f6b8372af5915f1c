import Foundation
import Testing
@testable import PhoneVerifyClient

/// Every call of the client against the real `phone-verify` binary on 127.0.0.1; codes are read
/// from the development inbox (`GET /dev/messages`). Each test has its own server.
@Suite(.timeLimit(.minutes(1))) struct LiveClientTests {
    let phone = "+14155552671"

    @Test func signInStartStatusWrongCodeCheckAndReuse() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = server.client()
        let verification = try await client.startVerification(phoneNumber: "(415) 555-2671", defaultRegion: "US", locale: "en")
        #expect(verification.phoneNumber == phone && verification.status == .pending)
        #expect(verification.codeLength == 6 && verification.attemptsRemaining == 5)
        #expect(verification.expiresAt > Date() && verification.resendAvailableAt > verification.createdAt)
        let code = try await server.code(for: verification.id, phone: phone)

        let status = try await client.status(verificationID: verification.id)
        #expect(status.id == verification.id && status.status == .pending)
        #expect(status.delivery?.attempts ?? 0 >= 0)

        let wrong = code == "000000" ? "111111" : "000000"
        await #expect(throws: PhoneVerifyError.incorrectCode(attemptsRemaining: 4)) {
            try await client.check(verificationID: verification.id, code: wrong)
        }
        await #expect {
            try await client.check(verificationID: verification.id, code: "12")
        } throws: { error in
            // The message is the server's; the field is the contract.
            guard case .invalidRequest(let field, _) = error as? PhoneVerifyError else { return false }
            return field == "code"
        }

        let credential = try await client.check(verificationID: verification.id, code: code)
        #expect(credential.verificationID == verification.id && credential.tokenType == "Bearer")
        #expect(credential.claims.phoneNumber == phone && credential.claims.subject == "tel:" + phone)
        #expect(credential.claims.phoneNumberVerified == true && credential.claims.verificationID == verification.id)
        #expect(credential.claims.assuranceLevel == "aal1" && credential.claims.authenticationMethods == ["sms"])
        #expect(credential.claims.issuer != nil && !credential.claims.audience.isEmpty && credential.claims.tokenID != nil)
        #expect(!credential.isExpired() && credential.expiresAt <= Date().addingTimeInterval(301))

        await #expect(throws: PhoneVerifyError.alreadyUsed) { try await client.check(verificationID: verification.id, code: code) }
        await #expect(throws: PhoneVerifyError.alreadyUsed) { try await client.cancel(verificationID: verification.id) }
        #expect(try await client.status(verificationID: verification.id).status == .approved)
    }

    @Test func resendCancelAndResumeAfterARestartOfTheApp() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = server.client()
        let started = try await client.startVerification(phoneNumber: phone)
        // At once, within the cooldown (3 s, long enough for a loaded CI machine).
        await #expect {
            try await client.resend(verificationID: started.id)
        } throws: { error in
            guard case .resendTooSoon(let at, let retryAfter) = error as? PhoneVerifyError else { return false }
            return at != nil && (retryAfter ?? -1) >= 0
        }
        let firstCode = try await server.code(for: started.id, phone: phone)
        try await Task.sleep(nanoseconds: UInt64(max(0, started.resendAvailableAt.timeIntervalSinceNow) * 1e9) + 1_100_000_000)
        let resent = try await client.resend(verificationID: started.id)
        #expect(resent.id == started.id && resent.sendsRemaining == started.sendsRemaining - 1)
        #expect(resent.resendAvailableAt > started.resendAvailableAt)

        // The app is restarted: the pending verification is read back and resumed.
        let stored = try started.pending.encoded()
        let pending = try PendingVerification(encoded: stored)
        let resumed = try await server.client().resume(pending)
        #expect(resumed.id == started.id && resumed.sendsRemaining == resent.sendsRemaining)

        let canceled = try await client.cancel(verificationID: started.id)
        #expect(canceled.status == .canceled)
        #expect(try await client.cancel(verificationID: started.id).status == .canceled)
        await #expect(throws: PhoneVerifyError.alreadyUsed) { try await client.resume(pending) }
        await #expect(throws: PhoneVerifyError.alreadyUsed) { try await client.check(verificationID: started.id, code: firstCode) }
    }

    @Test func theSameIdempotencyKeyNeverSendsTwiceAndRefusalsAreTyped() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = server.client()
        let first = try await client.startVerification(phoneNumber: phone, idempotencyKey: "client-test-key-1")
        let replay = try await client.startVerification(phoneNumber: phone, idempotencyKey: "client-test-key-1")
        #expect(replay.id == first.id)
        _ = try await server.code(for: first.id, phone: phone)
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(try await server.messages(phone: phone, verificationID: first.id).count == 1)
        await #expect(throws: PhoneVerifyError.idempotencyKeyReused) {
            try await client.startVerification(phoneNumber: phone, locale: "fr", idempotencyKey: "client-test-key-1")
        }

        await #expect(throws: PhoneVerifyError.invalidPhoneNumber(reason: "too_short")) {
            try await client.startVerification(phoneNumber: "+1415")
        }
        await #expect(throws: PhoneVerifyError.notFound) { try await client.status(verificationID: "ver_00000000000000000000000000000000") }
        await #expect {
            try await client.startVerification(phoneNumber: "+18005550100")
        } throws: { error in
            guard case .unsupportedLineType(let lineType) = error as? PhoneVerifyError else { return false }
            return lineType == "toll_free"
        }
    }

    @Test func aServerThatIsNotThereIsANetworkError() async throws {
        let server = try ServerProcess()
        let base = server.base
        server.stop()
        let client = PhoneVerifyClient(baseURL: base, configuration: .init(requestTimeout: 5, maxAttempts: 2, retryBaseDelay: 0.05))
        await #expect {
            try await client.startVerification(phoneNumber: phone)
        } throws: { error in
            guard case .network = error as? PhoneVerifyError else { return false }
            return true
        }
    }

    @Test func theChallengeHookGetsAGrantAndTheStartIsSentOnceMore() async throws {
        let server = try ServerProcess(environment: ServerProcess.grantEnvironment)
        defer { server.stop() }
        let offered = ChallengeAndMFATests.HookLog()
        let phone = self.phone
        let client = server.client(
            .init(challengeProvider: { providers in
                offered.record(providers)
                guard providers.contains(where: { $0.name == "grant" }) else { return nil }
                return ChallengeToken(provider: "grant", token: ServerProcess.grant(phone: phone))
            }))
        let verification = try await client.startVerification(phoneNumber: phone)
        #expect(offered.calls.map { $0.map(\.name) } == [["grant"]])
        _ = try await server.code(for: verification.id, phone: phone)

        // Without a hook the app sees the providers; a replayed grant is refused.
        let plain = server.client()
        await #expect {
            try await plain.startVerification(phoneNumber: "+447400123456")
        } throws: { error in
            guard case .challengeRequired(let providers) = error as? PhoneVerifyError else { return false }
            return providers.map(\.name) == ["grant"]
        }
        let grant = ChallengeToken(provider: "grant", token: ServerProcess.grant(phone: "+447400123456"))
        _ = try await plain.startVerification(phoneNumber: "+447400123456", challenge: grant)
        await #expect(throws: PhoneVerifyError.challengeFailed(provider: "grant")) {
            try await plain.startVerification(phoneNumber: "+447400123456", challenge: grant)
        }
    }

    @Test func mfaEnrolConfirmListChallengeVerifyAndDelete() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let phone = "+447400123456"
        let mfa = server.client().multiFactor(sessionToken: ServerProcess.sessionToken(user: "user-alice", session: "sess-a"))
        #expect(try await mfa.factors().isEmpty)

        let enrolment = try await mfa.enrollPhone(phone)
        #expect(enrolment.purpose == "mfa_enroll" && enrolment.phoneNumber == phone)
        let factor = try await mfa.confirmEnrollment(enrollmentID: enrolment.id, code: try await server.code(for: enrolment.id, phone: phone))
        #expect(factor.phoneNumberHint == "+44*******3456" && factor.id.hasPrefix("fac_"))
        #expect(try await mfa.factors().map(\.id) == [factor.id])

        await #expect {
            try await mfa.deleteFactor(factor.id)
        } throws: { error in
            guard case .stepUpRequired(let maxAge, let acr) = error as? PhoneVerifyError else { return false }
            return maxAge != nil && acr == "aal2"
        }
        await #expect {
            try await mfa.enrollPhone("+447400123457")
        } throws: { error in
            guard case .stepUpRequired = error as? PhoneVerifyError else { return false }
            return true
        }

        let challenge = try await mfa.challenge(factorID: factor.id)
        #expect(challenge.factorID == factor.id && challenge.phoneNumberHint == "+44*******3456")
        let code = try await server.code(for: challenge.id, phone: phone)
        let stepUp = try await mfa.verify(challengeID: challenge.id, code: code)
        #expect(stepUp.claims.isStepUp && stepUp.claims.subject == "user-alice" && stepUp.claims.sessionID == "sess-a")
        #expect(stepUp.claims.authenticationMethods == ["pwd", "sms", "mfa"])

        let deleted = try await mfa.deleteFactor(factor.id, stepUp: stepUp)
        #expect(deleted.id == factor.id)
        #expect(try await mfa.factors().isEmpty)

        let stranger = server.client().multiFactor(sessionToken: "not-a-token")
        await #expect {
            try await stranger.factors()
        } throws: { error in
            guard case .unauthenticated = error as? PhoneVerifyError else { return false }
            return true
        }
        await #expect(throws: PhoneVerifyError.notFound) { try await mfa.challenge(factorID: "fac_00000000000000000000000000000000") }
    }
}
