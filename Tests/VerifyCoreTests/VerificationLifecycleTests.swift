import Foundation
import Testing
import VerifyCore
import VerifyTesting

@Suite struct VerificationLifecycleTests {
    let t = TestService()

    func start(_ number: String = "+15555550123") throws -> Verification {
        try t.service.start(StartRequest(phoneNumber: number)).verification
    }

    @Test func startCreatesPendingVerificationAndQueuesOneSealedMessage() throws {
        let v = try start()
        #expect(v.id.hasPrefix("ver_") && v.id.count == 36)
        #expect(v.status(at: t.clock.now()) == .pending)
        #expect(v.phoneNumber == "+15555550123")
        #expect(v.expiresAt == t.clock.now().addingTimeInterval(300))
        #expect(v.resendAvailableAt == t.clock.now().addingTimeInterval(30))
        #expect(v.attemptsRemaining == 5)
        #expect(t.store.messages.count == 1)
        #expect(t.notifier.count == 1)
        let code = try t.lastCode(for: v.id)
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        // The code is not stored in clear anywhere in the verification or the sealed payload.
        #expect(!String(decoding: v.codeHash, as: UTF8.self).hasSuffix("|" + code) || v.codeHash == FakeHasher().hash(code: code, verificationID: v.id))
        #expect(!String(decoding: t.store.messages[0].sealedPayload, as: UTF8.self).contains(code))
    }

    @Test func correctCodeApprovesOnceAndIssuesFirstFactorCredential() throws {
        let v = try start()
        let code = try t.lastCode(for: v.id)
        let approved = try t.service.checkAndIssue(id: v.id, code: code)
        #expect(approved.verification.status(at: t.clock.now()) == .approved)
        let token = try #require(approved.credential).token
        let claims = try JWTParts.claims(token)
        #expect(claims["sub"] == "tel:+15555550123")
        #expect(claims["amr"] == ["sms"])
        #expect(claims["acr"] == "aal1")
        #expect(claims["vid"] == .string(v.id))
        #expect(claims["phone_number_verified"] == true)
        let again = #expect(throws: VerifyError.self) { try t.service.check(id: v.id, code: code) }
        #expect(again?.code == .alreadyUsed)
    }

    @Test func wrongCodesCountDownThenMaxAttemptsEvenForTheRightCode() throws {
        let v = try start()
        let code = try t.lastCode(for: v.id)
        let wrong = code == "000000" ? "111111" : "000000"
        for remaining in stride(from: 4, through: 0, by: -1) {
            let error = #expect(throws: VerifyError.self) { try t.service.check(id: v.id, code: wrong) }
            #expect(error?.code == .incorrectCode)
            #expect(error?.details["attempts_remaining"] == .int(Int64(remaining)))
        }
        let blocked = #expect(throws: VerifyError.self) { try t.service.check(id: v.id, code: code) }
        #expect(blocked?.code == .maxAttemptsReached)
        #expect(try t.service.get(id: v.id).status == .maxAttemptsReached)
    }

    @Test func expiredCodeIsRefusedAtTheBoundary() throws {
        let v = try start()
        let code = try t.lastCode(for: v.id)
        t.clock.advance(299.999)
        #expect(try t.service.get(id: v.id).status == .pending)
        t.clock.advance(0.001)
        let error = #expect(throws: VerifyError.self) { try t.service.check(id: v.id, code: code) }
        #expect(error?.code == .expired)
        #expect(try t.service.get(id: v.id).status == .expired)
    }

    @Test func malformedCodeIsRefusedWithoutCountingAnAttempt() throws {
        let v = try start()
        for bad in ["12345", "1234567", "abcdef", "12 456"] {
            let error = #expect(throws: VerifyError.self) { try t.service.check(id: v.id, code: bad) }
            #expect(error?.code == .invalidRequest)
        }
        #expect(try t.service.get(id: v.id).verification.attempts == 0)
    }

    @Test func unknownIdIsNotFound() {
        let error = #expect(throws: VerifyError.self) { try t.service.check(id: "ver_nope", code: "123456") }
        #expect(error?.code == .notFound)
    }

    @Test func cancelStopsTheCodeAndApprovedCannotBeCanceled() throws {
        let v = try start()
        let code = try t.lastCode(for: v.id)
        #expect(try t.service.cancel(id: v.id).storedStatus == .canceled)
        #expect(try t.service.cancel(id: v.id).storedStatus == .canceled)
        let error = #expect(throws: VerifyError.self) { try t.service.check(id: v.id, code: code) }
        #expect(error?.code == .alreadyUsed)
        #expect(t.store.messages.last?.status == .failed)
        // The delivery worker is told (once), so a message still in its memory is not sent.
        #expect(t.notifier.superseded == [v.id])

        let w = try start("+15555550124")
        _ = try t.service.check(id: w.id, code: try t.lastCode(for: w.id))
        let refused = #expect(throws: VerifyError.self) { try t.service.cancel(id: w.id) }
        #expect(refused?.code == .alreadyUsed)
        #expect(t.notifier.superseded == [v.id])  // a refused cancel tells nobody
    }

    @Test func purposesAreSeparated() throws {
        let v = try start()
        let error = #expect(throws: VerifyError.self) { try t.service.get(id: v.id, purposes: [.mfaStepUp]) }
        #expect(error?.code == .notFound)
    }
}
