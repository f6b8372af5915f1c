import Foundation
import Gateways
import Testing
import VerifyCore

@Suite struct DevInboxLogTests {
    func message(_ n: Int, to: String = "+15555550100") -> DevMessage {
        DevMessage(
            to: to, body: "code \(n)", code: String(format: "%06d", n), verificationID: "ver_\(n)", purpose: .signIn,
            gateway: "console", sentAt: Date(timeIntervalSince1970: Double(n)))
    }

    @Test func keepsTheNewestUpToItsCapacityAndFindsThemByNumberAndVerification() {
        let inbox = DevInbox(capacity: 4)
        for n in 1...6 { inbox.record(message(n, to: n % 2 == 0 ? "+15555550100" : "+15555550111")) }
        #expect(inbox.count == 6)
        #expect(inbox.messages(to: nil, limit: 10).map(\.code) == ["000006", "000005", "000004", "000003"])
        #expect(inbox.messages(to: "+15555550100", limit: 10).map(\.code) == ["000006", "000004"])
        #expect(inbox.messages(to: "+15555550111", limit: 1).map(\.code) == ["000005"])
        #expect(inbox.messages(to: nil, verificationID: "ver_3", limit: 10).map(\.code) == ["000003"])
        #expect(inbox.messages(to: "+15555550100", verificationID: "ver_3", limit: 10).isEmpty)
        // Evicted: the first two are gone from every view.
        #expect(inbox.messages(to: nil, verificationID: "ver_2", limit: 10).isEmpty)
        for n in 7...20 { inbox.record(message(n, to: "+15555550122")) }
        #expect(inbox.messages(to: "+15555550100", limit: 10).isEmpty)
        #expect(inbox.messages(to: "+15555550122", limit: 10).count == 4)
    }

    @Test func waitingReturnsWhenTheAwaitedMessageArrives() {
        let inbox = DevInbox()
        inbox.record(message(1))
        let started = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            inbox.record(message(2, to: "+15555550199"))  // another number: does not end the wait
            inbox.record(message(3))
        }
        let found = inbox.waitForMessages(to: "+15555550100", verificationID: "ver_3", limit: 5, timeout: 5)
        #expect(found.map(\.code) == ["000003"])
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test func waitingGivesUpAfterItsTimeoutWithNothing() {
        let inbox = DevInbox()
        let started = Date()
        #expect(inbox.waitForMessages(to: "+15555550100", verificationID: nil, limit: 5, timeout: 0.2).isEmpty)
        #expect(Date().timeIntervalSince(started) >= 0.19)
        // What already matches is returned at once.
        inbox.record(message(4))
        #expect(inbox.waitForMessages(to: "+15555550100", verificationID: nil, limit: 5, timeout: 5).map(\.code) == ["000004"])
    }
}
