import Foundation
import Testing
@testable import PhoneVerifyClient

/// Requests, retries, idempotency keys, the challenge hook and decoding, with canned answers.
@Suite struct ClientBehaviourTests {
    @Test func startSendsTheBodyAndAnIdempotencyKeyAndDecodesTheVerification() async throws {
        let stub = StubServer([.json(201, Canned.verification)])
        let verification = try await stub.client().startVerification(phoneNumber: "(415) 555-2671", defaultRegion: "US", locale: "en")
        #expect(verification.id == "ver_0a1b")
        #expect(verification.phoneNumber == "+14155552671")
        #expect(verification.status == .pending)
        #expect(verification.attemptsRemaining == 5 && verification.sendsRemaining == 4 && verification.codeLength == 6)
        #expect(verification.expiresAt == Date(timeIntervalSince1970: 1_796_040_300))
        #expect(verification.secondsUntilResend(now: Date(timeIntervalSince1970: 1_796_040_000)) == 30)
        let request = try #require(stub.requests.first)
        #expect(request.method == "POST" && request.path == "/v1/verifications")
        #expect(request.body?["phone_number"] as? String == "(415) 555-2671")
        #expect(request.body?["default_region"] as? String == "US")
        #expect(request.body?["locale"] as? String == "en")
        #expect(request.body?["channel"] as? String == "sms")
        #expect(request.body?["challenge"] == nil)
        #expect(request.header("Content-Type") == "application/json")
        let key = try #require(request.header("Idempotency-Key"))
        #expect(UUID(uuidString: key) != nil)
    }

    @Test func eachStartHasItsOwnKeyAndACallerKeyIsUsed() async throws {
        let stub = StubServer([.json(201, Canned.verification)])
        let client = stub.client()
        _ = try await client.startVerification(phoneNumber: "+14155552671")
        _ = try await client.startVerification(phoneNumber: "+14155552671")
        _ = try await client.startVerification(phoneNumber: "+14155552671", idempotencyKey: "mine-1")
        let keys = stub.requests.compactMap { $0.header("Idempotency-Key") }
        #expect(keys.count == 3 && keys[0] != keys[1] && keys[2] == "mine-1")
    }

    @Test func aLostAnswerOnStartIsRetriedWithTheSameKey() async throws {
        let stub = StubServer([.failure(.networkConnectionLost), .failure(.timedOut), .json(201, Canned.verification)])
        let verification = try await stub.client().startVerification(phoneNumber: "+14155552671")
        #expect(verification.id == "ver_0a1b")
        #expect(stub.requests.count == 3)
        #expect(Set(stub.requests.compactMap { $0.header("Idempotency-Key") }).count == 1)
    }

    @Test func retriesAreBounded() async throws {
        let stub = StubServer([.failure(.timedOut)])
        await #expect(throws: PhoneVerifyError.network(code: URLError.Code.timedOut.rawValue, message: URLError(.timedOut).localizedDescription)) {
            try await stub.client(.init(maxAttempts: 3, retryBaseDelay: 0)).startVerification(phoneNumber: "+14155552671")
        }
        #expect(stub.requests.count == 3)
    }

    @Test func aLostAnswerOnCheckOrResendIsNotRetried() async throws {
        for call in ["check", "resend", "challenge", "deleteFactor"] {
            let stub = StubServer([.failure(.networkConnectionLost), .json(200, Canned.approved())])
            let client = stub.client()
            await #expect(throws: PhoneVerifyError.self, "\(call)") {
                switch call {
                case "check": _ = try await client.check(verificationID: "ver_1", code: "123456")
                case "resend": _ = try await client.resend(verificationID: "ver_1")
                case "challenge": _ = try await client.multiFactor(sessionToken: "t").challenge(factorID: "fac_1")
                default: _ = try await client.multiFactor(sessionToken: "t").deleteFactor("fac_1")
                }
            }
            #expect(stub.requests.count == 1, "\(call)")
        }
    }

    @Test func aConnectionThatNeverReachedTheServerIsRetriedForAnyCall() async throws {
        let stub = StubServer([.failure(.cannotConnectToHost), .json(200, Canned.approved())])
        let credential = try await stub.client().check(verificationID: "ver_1", code: "123456")
        #expect(credential.verificationID == "ver_0a1b")
        #expect(stub.requests.count == 2)
    }

    @Test func readsAndCancelAreRetriedAfterALostAnswer() async throws {
        let stub = StubServer([.failure(.networkConnectionLost), .json(200, Canned.verification)])
        _ = try await stub.client().status(verificationID: "ver_1")
        let cancel = StubServer([.failure(.timedOut), .json(200, Canned.verification)])
        try await cancel.client().cancel(verificationID: "ver_1")
        #expect(stub.requests.count == 2 && cancel.requests.count == 2)
        #expect(cancel.requests.allSatisfy { $0.method == "DELETE" && $0.path == "/v1/verifications/ver_1" })
    }

    @Test func a503IsRetriedForAnyCallAfterRetryAfterWithinTheCap() async throws {
        let waits = WaitLog()
        let stub = StubServer([.json(503, Canned.error("unavailable"), headers: ["Retry-After": "5"]), .json(200, Canned.approved())])
        let client = stub.client(.init(maxRetryDelay: 10), sleep: { waits.append($0) })
        _ = try await client.check(verificationID: "ver_1", code: "123456")
        #expect(stub.requests.count == 2)
        #expect(waits.all == [5])
    }

    @Test func aRetryAfterLongerThanTheCapIsThrownAtOnce() async throws {
        let stub = StubServer([.json(503, Canned.error("unavailable"), headers: ["Retry-After": "60"]), .json(201, Canned.verification)])
        await #expect(throws: PhoneVerifyError.unavailable(retryAfter: 60)) {
            try await stub.client(.init(maxRetryDelay: 10)).startVerification(phoneNumber: "+14155552671")
        }
        #expect(stub.requests.count == 1)
    }

    @Test func rateLimitsAreNotRetried() async throws {
        let stub = StubServer([.json(429, Canned.error("rate_limited", #"{"scope":"ip"}"#), headers: ["Retry-After": "1"])])
        await #expect(throws: PhoneVerifyError.rateLimited(scope: "ip", retryAfter: 1)) {
            try await stub.client().startVerification(phoneNumber: "+14155552671")
        }
        #expect(stub.requests.count == 1)
    }

    @Test func theCredentialsClaimsAreDecodedWithoutVerification() async throws {
        let stub = StubServer([.json(200, Canned.approved())])
        let credential = try await stub.client().check(verificationID: "ver_0a1b", code: "123456")
        #expect(credential.tokenType == "Bearer" && credential.expiresIn == 300)
        #expect(credential.claims.subject == "tel:+14155552671")
        #expect(credential.claims.phoneNumber == "+14155552671")
        #expect(credential.claims.audience == ["main-auth"])
        #expect(credential.claims.authenticationMethods == ["sms"])
        #expect(credential.claims.verificationID == "ver_0a1b")
        #expect(credential.claims.isStepUp == false)
        #expect(credential.expiresAt == Date(timeIntervalSince1970: 1_796_087_092))
        let request = try #require(stub.requests.first)
        #expect(request.path == "/v1/verifications/ver_0a1b/check" && request.body?["code"] as? String == "123456")
        #expect(request.header("Idempotency-Key") == nil)
    }

    @Test func aTokenThatIsNotAJWTIsAnInvalidResponse() async throws {
        let stub = StubServer([
            .json(200, #"{"id": "ver_1", "status": "approved", "credential": {"token": "nope", "token_type": "Bearer", "expires_in": 300}}"#)
        ])
        await #expect(throws: PhoneVerifyError.self) { try await stub.client().check(verificationID: "ver_1", code: "123456") }
    }

    @Test func aPendingVerificationSurvivesARestart() async throws {
        let stub = StubServer([.json(201, Canned.verification)])
        let pending = try await stub.client().startVerification(phoneNumber: "+14155552671").pending
        let restored = try PendingVerification(encoded: try pending.encoded())
        #expect(restored == pending)
        #expect(restored.verificationID == "ver_0a1b" && restored.codeLength == 6)
        #expect(restored.isExpired(now: Date(timeIntervalSince1970: 1_796_040_301)))

        let later = StubServer([.json(200, Canned.verification.replacingOccurrences(of: "\"pending\"", with: "\"expired\""))])
        await #expect(throws: PhoneVerifyError.expired) { try await later.client().resume(restored) }
        let live = StubServer([.json(200, Canned.verification)])
        #expect(try await live.client().resume(restored).id == "ver_0a1b")
        #expect(live.requests.first?.path == "/v1/verifications/ver_0a1b")
    }

    @Test func aBaseURLWithAPathPrefixIsKept() async throws {
        let stub = StubServer([.json(200, Canned.verification)])
        let session = stub.client().session
        for base in ["http://\(stub.host)/verify", "http://\(stub.host)/verify/"] {
            _ = try await PhoneVerifyClient(baseURL: URL(string: base)!, session: session).status(verificationID: "ver_1")
        }
        #expect(stub.requests.map(\.path) == ["/verify/v1/verifications/ver_1", "/verify/v1/verifications/ver_1"])
    }

    @Test func idsArePercentEncodedAsOnePathSegment() async throws {
        let stub = StubServer([.json(200, Canned.verification)])
        _ = try await stub.client().status(verificationID: "a/b?c")
        #expect(stub.requests.first?.path == "/v1/verifications/a/b?c")  // URL.path decodes %2F and %3F
        #expect(Endpoint.status.path(id: "a/b?c") == "/v1/verifications/a%2Fb%3Fc")
    }
}

final class WaitLog: @unchecked Sendable {
    private let lock = NSLock()
    private var waits: [TimeInterval] = []
    func append(_ seconds: TimeInterval) { lock.withLock { waits.append(seconds) } }
    var all: [TimeInterval] { lock.withLock { waits } }
}
