import Foundation
import Testing
import VerifyCore
import VerifyTesting

@Suite struct ResendTests {
    let t = TestService()

    @Test func resendReplacesTheCodeKeepsAttemptsAndDoublesTheCooldown() throws {
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        let first = try t.lastCode(for: v.id)
        let wrong = first == "000000" ? "111111" : "000000"
        _ = try? t.service.check(id: v.id, code: wrong)

        let early = #expect(throws: VerifyError.self) { try t.service.resend(id: v.id) }
        #expect(early?.code == .resendTooSoon)
        #expect(early?.retryAfter == 30)

        t.clock.advance(30)
        let r1 = try t.service.resend(id: v.id).verification
        #expect(r1.attempts == 1)
        #expect(r1.sends == 2)
        #expect(r1.resendAvailableAt == t.clock.now().addingTimeInterval(60))
        #expect(r1.expiresAt == t.clock.now().addingTimeInterval(300))
        let second = try t.lastCode(for: v.id)
        if first != second {
            let old = #expect(throws: VerifyError.self) { try t.service.check(id: v.id, code: first) }
            #expect(old?.code == .incorrectCode)
        }
        #expect(try t.service.check(id: v.id, code: second).verification.storedStatus == .approved)
    }

    @Test func cooldownsDoubleUntilMaxSends() throws {
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        var waits: [Int] = []
        var current = v
        while current.sends < 5 {
            let wait = Int(current.resendAvailableAt.timeIntervalSince(t.clock.now()))
            waits.append(wait)
            t.clock.advance(TimeInterval(wait))
            current = try t.service.resend(id: v.id).verification
        }
        #expect(waits == [30, 60, 120, 240])
        t.clock.advance(10_000)
        // Expired by now: the expiry wins over max sends.
        let expired = #expect(throws: VerifyError.self) { try t.service.resend(id: v.id) }
        #expect(expired?.code == .expired)
    }

    @Test func sixthSendIsRefused() throws {
        var policy = VerificationPolicy()
        policy.resendCooldown = 0
        let t = TestService(policy: policy)
        let v = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        for _ in 0..<4 { _ = try t.service.resend(id: v.id) }
        let error = #expect(throws: VerifyError.self) { try t.service.resend(id: v.id) }
        #expect(error?.code == .maxSendsReached)
        #expect(t.store.messages.count == 5)
        // Only the newest message is still deliverable.
        #expect(t.store.messages.filter { $0.status == .queued }.count == 1)
    }
}
