import Foundation
import Testing
import VerifyCore

/// The delivery worker reads a claimed message's row again just before sending it: every store
/// says whether it is still queued under that worker's lease.
@Suite struct StillQueuedTests {
    @Test(arguments: StoreKind.allCases)
    func aClaimedMessageIsStillQueuedUntilSuperseded(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { tx in
            try tx.insert(sample("ver_1"))
            try tx.enqueue(message("msg_1", for: "ver_1"))
        }
        #expect(try store.stillQueued(messageID: "msg_1", owner: "A") == false)  // not claimed yet
        #expect(try store.claimDue(limit: 1, now: t0, leaseUntil: t0.addingTimeInterval(60), owner: "A").count == 1)
        #expect(try store.stillQueued(messageID: "msg_1", owner: "A"))
        #expect(try store.stillQueued(messageID: "msg_1", owner: "B") == false)
        try store.write { tx in try tx.supersedeQueuedMessages(verificationID: "ver_1", reason: "superseded by a resend", now: t0) }
        #expect(try store.stillQueued(messageID: "msg_1", owner: "A") == false)
        #expect(try store.stillQueued(messageID: "msg_unknown", owner: "A") == false)
    }
}
