import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// Per-send options and the lifecycle hooks the Twilio-compatible API builds on.
@Suite struct SendOptionsTests {
    @Test func codeLengthCustomCodeAndNamesShapeTheMessage() throws {
        let t = TestService(protection: .off)
        let options = SendOptions(codeLength: 9, appName: "Acme", appHash: "FA+9qCX9VSu")
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123", options: options)).verification
        #expect(v.codeLength == 9)
        let code = try t.lastCode(for: v.id)
        #expect(code.count == 9)
        let payload = try JSONDecoder().decode(MessagePayload.self, from: Data(try FakeSealer().open(try #require(t.store.messages.last).sealedPayload)))
        #expect(payload.body.hasPrefix("Your Acme code is \(code)."))
        #expect(payload.body.hasSuffix("\n\nFA+9qCX9VSu"))

        // Custom codes are for the Twilio-compatible API's verifications only.
        let custom = try t.service.start(
            StartRequest(phoneNumber: "+15555550124", purpose: .delegated, options: SendOptions(customCode: "0042"))).verification
        #expect(try t.lastCode(for: custom.id) == "0042")
        #expect(custom.codeLength == 4)
        #expect(try t.service.check(id: custom.id, code: "0042", purposes: [.delegatedCustomCode]).verification.storedStatus == .approved)
    }

    @Test func invalidOptionsAreRefusedBeforeAnythingHappens() {
        let t = TestService(protection: .off)
        for options in [SendOptions(codeLength: 3), SendOptions(codeLength: 11), SendOptions(customCode: "12a4"), SendOptions(appHash: "short")] {
            let error = #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: "+15555550123", options: options)) }
            #expect(error?.code == .invalidRequest)
        }
        #expect(t.store.messages.isEmpty)
    }

    @Test func refusedLineTypesAddToThePolicy() throws {
        var policy = VerificationPolicy()
        policy.allowedLineTypes.insert(.tollFree)
        let t = TestService(policy: policy, protection: .off)
        _ = try t.service.start(StartRequest(phoneNumber: "+18005550100"))
        let error = #expect(throws: VerifyError.self) {
            try t.service.start(StartRequest(phoneNumber: "+18005550101", options: SendOptions(refusedLineTypes: [.tollFree])))
        }
        #expect(error?.code == .unsupportedLineType)
    }

    @Test func resendCanSkipTheCooldownAndKeepsTheVerificationsCodeLength() throws {
        let t = TestService(protection: .off)
        let compat: Set<Purpose> = [.delegated, .delegatedCustomCode]
        let v = try t.service.start(
            StartRequest(phoneNumber: "+15555550123", purpose: .delegated, options: SendOptions(codeLength: 8))).verification
        let early = #expect(throws: VerifyError.self) { try t.service.resend(id: v.id, purposes: compat) }
        #expect(early?.code == .resendTooSoon)
        let again = try t.service.resend(id: v.id, purposes: compat, ignoringCooldown: true).verification
        #expect(again.sends == 2)
        #expect(again.codeLength == 8)
        #expect(try t.lastCode(for: v.id).count == 8)
        let custom = try t.service.resend(id: v.id, purposes: compat, options: SendOptions(customCode: "12345"), ignoringCooldown: true).verification
        #expect(custom.codeLength == 5)
        #expect(try t.service.check(id: v.id, code: "12345", purposes: compat).verification.storedStatus == .approved)
    }

    /// A caller-chosen code proves nothing about who holds the phone: its approval is never a
    /// conversion for the fraud guard, from the first custom code on (found by a review: a tenant
    /// could lift a pause by checking its own codes). A generated code's approval still counts.
    @Test func approvingACustomCodeIsNoConversion() throws {
        let t = TestService()
        let compat: Set<Purpose> = [.delegated, .delegatedCustomCode]
        let custom = try t.service.start(
            StartRequest(phoneNumber: "+15555550123", purpose: .delegated, options: SendOptions(customCode: "424242"))).verification
        #expect(custom.purpose == .delegatedCustomCode)
        _ = try t.service.check(id: custom.id, code: "424242", purposes: compat)
        let generated = try t.service.start(StartRequest(phoneNumber: "+15555550124", purpose: .delegated)).verification
        let switched = try t.service.resend(id: generated.id, purposes: compat, options: SendOptions(customCode: "4242"), ignoringCooldown: true)
        #expect(switched.verification.purpose == .delegatedCustomCode)
        _ = try t.service.check(id: generated.id, code: "4242", purposes: compat)
        let plain = try t.service.start(StartRequest(phoneNumber: "+15555550125", purpose: .delegated)).verification
        _ = try t.service.check(id: plain.id, code: try t.lastCode(for: plain.id), purposes: compat)
        let stats = try t.store.read { try $0.fraudStats(since: Date(timeIntervalSince1970: 0)) }.filter(\.key.isGuardKey)
        // Four sends and the one generated code's approval, in the block's and the country's keys.
        #expect(!stats.isEmpty && stats.allSatisfy { $0.sent == 4 && $0.approved == 1 })
    }

    @Test func onStartedRunsInTheTransactionAndItsErrorUndoesTheStart() throws {
        let t = TestService(protection: .off)
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try t.service.start(StartRequest(phoneNumber: "+15555550123")) { _, _ in throw Refused() }
        }
        #expect(t.store.messages.isEmpty)
        let seen = Box()
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123")) { verification, tx in
            seen.id = try tx.verification(id: verification.id)?.id
        }.verification
        #expect(seen.id == v.id)
    }

    @Test func approveWithoutACode() throws {
        let t = TestService(protection: .off)
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        let approved = try t.service.approve(id: v.id)
        #expect(approved.storedStatus == .approved && approved.approvedAt != nil)
        #expect(t.notifier.superseded == [v.id])  // a message still in the worker's memory is dropped
        let again = #expect(throws: VerifyError.self) { try t.service.approve(id: v.id) }
        #expect(t.notifier.superseded == [v.id])
        #expect(again?.code == .alreadyUsed)
        let missing = #expect(throws: VerifyError.self) { try t.service.approve(id: "ver_missing") }
        #expect(missing?.code == .notFound)
    }

    /// An approval the caller declares proves nothing about the destination: it must not count as
    /// a conversion, or any tenant could lift the fraud guard's pause for free.
    @Test func approvingWithoutACodeIsNoConversion() throws {
        let t = TestService()
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        _ = try t.service.approve(id: v.id)
        let counts = try t.store.read { try $0.fraudStats(since: Date(timeIntervalSince1970: 0)) }
        #expect(counts.allSatisfy { $0.sent == 1 && $0.approved == 0 } && !counts.isEmpty)
    }

    @Test func serverCallersSkipPerIPLimitsOnly() throws {
        let limits = try RateLimits.defaults.overridden(by: "ip_send=1/10m;ip_check=1/10m")
        var fraud = FraudPolicy()
        fraud.enabled = false
        let t = TestService(protection: AbuseProtection(limits: limits, fraud: fraud))
        let a = try t.service.start(StartRequest(phoneNumber: "+15555550101", clientIP: AbuseProtection.serverCaller)).verification
        _ = try t.service.start(StartRequest(phoneNumber: "+15555550102", clientIP: AbuseProtection.serverCaller))
        _ = try t.service.start(StartRequest(phoneNumber: "+15555550103", clientIP: "203.0.113.1"))
        let limited = #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: "+15555550104", clientIP: "203.0.113.1")) }
        #expect(limited?.code == .rateLimited)
        for _ in 0..<2 {
            #expect(throws: VerifyError.self) { try t.service.check(id: a.id, code: "000000", clientIP: AbuseProtection.serverCaller) }
        }
        #expect(try t.service.get(id: a.id).verification.attempts == 2)
    }

    final class Box: @unchecked Sendable { var id: String? }
}

extension String {
    /// A block or country key (not the guard's distinct-count bookkeeping).
    var isGuardKey: Bool { hasPrefix("prefix:") || hasPrefix("country:") }
}
