import Foundation
import Testing
@testable import PhoneVerifyClient

/// The challenge hook (docs/CHALLENGES.md "The client's loop") and the MFA calls' requests.
@Suite struct ChallengeAndMFATests {
    static let required = Canned.error(
        "challenge_required", #"{"providers": [{"name": "turnstile", "site_key": "0x4AAA", "action": "sign_in"}]}"#)

    final class HookLog: @unchecked Sendable {
        private let lock = NSLock()
        private var offered: [[ChallengeProviderInfo]] = []
        func record(_ providers: [ChallengeProviderInfo]) { lock.withLock { offered.append(providers) } }
        var calls: [[ChallengeProviderInfo]] { lock.withLock { offered } }
    }

    @Test func theHookIsAskedAndTheStartIsRepeatedOnceWithTheTokenAndTheSameKey() async throws {
        let stub = StubServer([.json(403, Self.required), .json(201, Canned.verification)])
        let log = HookLog()
        let client = stub.client(
            .init(challengeProvider: { providers in
                log.record(providers)
                return ChallengeToken(provider: providers[0].name, token: "solved-\(providers[0].siteKey ?? "")")
            }))
        let verification = try await client.startVerification(phoneNumber: "+14155552671")
        #expect(verification.id == "ver_0a1b")
        #expect(log.calls == [[ChallengeProviderInfo(name: "turnstile", parameters: ["site_key": "0x4AAA", "action": "sign_in"])]])
        #expect(log.calls.first?.first?.action == "sign_in")
        let requests = stub.requests
        #expect(requests.count == 2)
        #expect(requests[0].body?["challenge"] == nil)
        let challenge = try #require(requests[1].body?["challenge"] as? [String: Any])
        #expect(challenge["provider"] as? String == "turnstile" && challenge["token"] as? String == "solved-0x4AAA")
        #expect(challenge.count == 2)
        #expect(requests[0].header("Idempotency-Key") != nil)
        #expect(requests[0].header("Idempotency-Key") == requests[1].header("Idempotency-Key"))
        #expect(requests[1].body?["phone_number"] as? String == "+14155552671")
    }

    @Test func aHookThatGivesUpLeavesChallengeRequired() async throws {
        let stub = StubServer([.json(403, Self.required)])
        let client = stub.client(.init(challengeProvider: { _ in nil }))
        await #expect(throws: PhoneVerifyError.challengeRequired(providers: [.init(name: "turnstile", parameters: ["site_key": "0x4AAA", "action": "sign_in"])])) {
            try await client.startVerification(phoneNumber: "+14155552671")
        }
        #expect(stub.requests.count == 1)
    }

    @Test func withoutAHookChallengeRequiredIsThrown() async throws {
        let stub = StubServer([.json(403, Self.required)])
        await #expect(throws: PhoneVerifyError.self) { try await stub.client().startVerification(phoneNumber: "+14155552671") }
        #expect(stub.requests.count == 1)
    }

    @Test func theHookIsAskedOnceOnly() async throws {
        let stub = StubServer([.json(403, Self.required)])
        let log = HookLog()
        let client = stub.client(.init(challengeProvider: { log.record($0); return ChallengeToken(provider: "turnstile", token: "t") }))
        await #expect(throws: PhoneVerifyError.self) { try await client.startVerification(phoneNumber: "+14155552671") }
        #expect(log.calls.count == 1 && stub.requests.count == 2)
    }

    @Test func aFailedChallengeIsThrownForTheAppToGetANewToken() async throws {
        let stub = StubServer([.json(403, Self.required), .json(403, Canned.error("challenge_failed", #"{"provider": "turnstile"}"#))])
        let client = stub.client(.init(challengeProvider: { _ in ChallengeToken(provider: "turnstile", token: "stale") }))
        await #expect(throws: PhoneVerifyError.challengeFailed(provider: "turnstile")) {
            try await client.startVerification(phoneNumber: "+14155552671")
        }
    }

    @Test func aGivenChallengeIsSentAndTheHookIsNotAsked() async throws {
        let stub = StubServer([.json(403, Self.required)])
        let log = HookLog()
        let client = stub.client(.init(challengeProvider: { log.record($0); return nil }))
        let token = ChallengeToken(provider: "app_attest", token: "assertion", keyID: "key", clientData: "data")
        await #expect(throws: PhoneVerifyError.self) { try await client.startVerification(phoneNumber: "+14155552671", challenge: token) }
        #expect(log.calls.isEmpty)
        let sent = try #require(stub.requests.first?.body?["challenge"] as? [String: String])
        #expect(sent == ["provider": "app_attest", "token": "assertion", "key_id": "key", "client_data": "data"])
    }

    @Test func resendUsesTheHookToo() async throws {
        let stub = StubServer([.json(403, Self.required), .json(200, Canned.verification)])
        let client = stub.client(.init(challengeProvider: { _ in ChallengeToken(provider: "turnstile", token: "t") }))
        _ = try await client.resend(verificationID: "ver_0a1b")
        #expect(stub.requests.map(\.path) == ["/v1/verifications/ver_0a1b/resend", "/v1/verifications/ver_0a1b/resend"])
        #expect((stub.requests[1].body?["challenge"] as? [String: String])?["token"] == "t")
        #expect(stub.requests.allSatisfy { $0.header("Idempotency-Key") == nil })
    }

    @Test func mfaCallsCarryTheSessionTokenOrTheStepUpCredential() async throws {
        let factor = #"{"id": "fac_1", "phone_number_hint": "+1*******2671", "created_at": "2026-11-30T12:00:00Z", "last_used_at": null, "display_name": "Work phone"}"#
        let challenge = """
            {"id": "ver_2", "status": "pending", "purpose": "mfa_step_up", "factor_id": "fac_1", "phone_number_hint": "+1*******2671",
             "channel": "sms", "expires_at": "2026-11-30T12:05:00Z", "resend_available_at": "2026-11-30T12:00:30Z",
             "attempts_remaining": 5, "sends_remaining": 4, "code_length": 6, "created_at": "2026-11-30T12:00:00Z"}
            """
        let stepUpJWT = Canned.jwt(#"{"sub":"user-1","sid":"s1","acr":"aal2","amr":["pwd","sms","mfa"],"exp":1796087092}"#)
        let stub = StubServer([
            .json(201, Canned.verification.replacingOccurrences(of: "\"channel\"", with: "\"purpose\": \"mfa_enroll\", \"channel\"")),
            .json(201, #"{"factor": \#(factor)}"#),
            .json(200, #"{"factors": [\#(factor)]}"#),
            .json(201, challenge),
            .json(200, #"{"id": "ver_2", "status": "approved", "credential": {"token": "\#(stepUpJWT)", "token_type": "Bearer", "expires_in": 300}}"#),
            .json(200, #"{"factor": \#(factor), "deleted": true}"#),
        ])
        let mfa = stub.client().multiFactor(sessionToken: "session-jwt")
        let enrolment = try await mfa.enrollPhone("+14155552671", locale: "en")
        #expect(enrolment.purpose == "mfa_enroll")
        let confirmed = try await mfa.confirmEnrollment(enrollmentID: enrolment.id, code: "123456", displayName: "Work phone")
        #expect(confirmed.id == "fac_1" && confirmed.lastUsedAt == nil && confirmed.displayName == "Work phone")
        #expect(stub.requests.last?.body?["display_name"] as? String == "Work phone")
        #expect(try await mfa.factors() == [confirmed])
        let sent = try await mfa.challenge(factorID: "fac_1")
        #expect(sent.factorID == "fac_1" && sent.phoneNumberHint == "+1*******2671" && sent.codeLength == 6)
        let stepUp = try await mfa.verify(challengeID: sent.id, code: "654321")
        #expect(stepUp.claims.isStepUp && stepUp.claims.sessionID == "s1")
        #expect(stepUp.claims.authenticationMethods == ["pwd", "sms", "mfa"])
        #expect(try await mfa.deleteFactor("fac_1", stepUp: stepUp).id == "fac_1")

        let requests = stub.requests
        #expect(requests.map { "\($0.method) \($0.path)" } == [
            "POST /v1/mfa/enrollments", "POST /v1/mfa/enrollments/ver_0a1b/confirm", "GET /v1/mfa/factors", "POST /v1/mfa/challenges",
            "POST /v1/mfa/challenges/ver_2/verify", "DELETE /v1/mfa/factors/fac_1",
        ])
        #expect(requests.dropLast().allSatisfy { $0.header("Authorization") == "Bearer session-jwt" })
        #expect(requests.last?.header("Authorization") == "Bearer " + stepUpJWT)
        #expect(requests[0].header("Idempotency-Key") != nil)
        #expect(requests.dropFirst().allSatisfy { $0.header("Idempotency-Key") == nil })
        #expect(requests[3].body?["factor_id"] as? String == "fac_1")
        #expect(requests[4].body?["code"] as? String == "654321")
    }
}
