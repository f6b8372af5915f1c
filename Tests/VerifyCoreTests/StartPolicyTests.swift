import Foundation
import Testing
import VerifyCore
import VerifyTesting

@Suite struct StartPolicyTests {
    @Test(arguments: [
        ("12345", "too_short"), ("", "not_a_number"), ("+1234567890123456789", "too_long"), ("+99912345678", "invalid_country_code"),
    ])
    func invalidNumbersAreRefusedWithTheReason(number: String, reason: String) {
        let t = TestService()
        let error = #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: number)) }
        #expect(error?.code == .invalidPhoneNumber)
        #expect(error?.details["reason"] == .string(reason))
        #expect(t.store.messages.isEmpty)
    }

    @Test func nationalFormatNeedsTheDefaultRegion() throws {
        let t = TestService()
        let v = try t.service.start(StartRequest(phoneNumber: "(555) 555-0123", defaultRegion: "US")).verification
        #expect(v.phoneNumber == "+15555550123")
    }

    @Test func tollFreeLinesAreRefusedByDefault() {
        let t = TestService()
        let error = #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: "+18005550100")) }
        #expect(error?.code == .unsupportedLineType)
        #expect(error?.details["line_type"] == "toll_free")
        #expect(t.store.messages.isEmpty)
    }

    @Test func regionAllowAndDenyLists() throws {
        var deny = VerificationPolicy()
        deny.regionDenyList = ["GB"]
        let denied = TestService(policy: deny)
        let error = #expect(throws: VerifyError.self) { try denied.service.start(StartRequest(phoneNumber: "+447700900123")) }
        #expect(error?.code == .regionNotAllowed)
        _ = try denied.service.start(StartRequest(phoneNumber: "+15555550123"))

        var allow = VerificationPolicy()
        allow.regionAllowList = ["GB"]
        let allowed = TestService(policy: allow)
        _ = try allowed.service.start(StartRequest(phoneNumber: "+447700900123"))
        let refused = #expect(throws: VerifyError.self) { try allowed.service.start(StartRequest(phoneNumber: "+15555550123")) }
        #expect(refused?.code == .regionNotAllowed)
    }

    @Test func onlySMSChannel() {
        let t = TestService()
        let error = #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: "+15555550123", channel: "voice")) }
        #expect(error?.code == .invalidRequest)
    }

    @Test func idempotencyKeyReplaysTheFirstResponseAndSendsNothing() throws {
        let t = TestService()
        let request = StartRequest(phoneNumber: "+15555550123", clientIP: "10.0.0.1", idempotencyKey: "k1")
        let first = try t.service.start(request)
        t.clock.advance(60)
        let second = try t.service.start(request)
        #expect(!first.replayed && second.replayed)
        #expect(second.verification == first.verification)
        #expect(t.store.messages.count == 1)
        #expect(t.notifier.count == 1)

        // Another client with the same key is another request.
        var other = request
        other.clientIP = "10.0.0.2"
        #expect(try t.service.start(other).replayed == false)

        // Same key for another number: another request, never the first one's record or id.
        var otherNumber = request
        otherNumber.phoneNumber = "+15555550124"
        let started = try t.service.start(otherNumber)
        #expect(!started.replayed && started.verification.id != first.verification.id)

        // Same key and number, different request: refused, naming nothing of the first.
        var changed = request
        changed.locale = "fr"
        let error = #expect(throws: VerifyError.self) { try t.service.start(changed) }
        #expect(error?.code == .idempotencyKeyReused)
        #expect(error?.details.isEmpty == true)

        // After 24 h the key is forgotten.
        t.clock.advance(86_400)
        #expect(try t.service.start(request).replayed == false)
    }
}
