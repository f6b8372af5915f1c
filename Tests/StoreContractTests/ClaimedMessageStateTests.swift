import Foundation
import Testing
import VerifyCore

/// The delivery worker reads a claimed message's row and its verification again just before
/// sending it: every store says whether it is still to send, superseded, or its verification ended.
@Suite struct ClaimedMessageStateTests {
    @Test(arguments: StoreKind.allCases)
    func aClaimedMessageIsDeliverableUntilSupersededOrItsVerificationEnds(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { tx in
            for n in 1...2 {
                try tx.insert(sample("ver_\(n)", phone: "+1555555012\(n)"))
                try tx.enqueue(message("msg_\(n)", for: "ver_\(n)"))
            }
        }
        #expect(try store.claimedMessageState(messageID: "msg_1", owner: "A") == .superseded)  // not claimed yet
        #expect(try store.claimDue(limit: 2, now: t0, leaseUntil: t0.addingTimeInterval(60), owner: "A").count == 2)
        #expect(try store.claimedMessageState(messageID: "msg_1", owner: "A") == .deliverable)
        #expect(try store.claimedMessageState(messageID: "msg_1", owner: "B") == .superseded)
        try store.write { tx in try tx.supersedeQueuedMessages(verificationID: "ver_1", reason: "superseded by a resend", now: t0) }
        #expect(try store.claimedMessageState(messageID: "msg_1", owner: "A") == .superseded)
        // Approved while its message waited for a retry: the message must not go out.
        try store.write(reading: ReadSet(verifications: ["ver_2"])) { tx in
            var v = try #require(try tx.verification(id: "ver_2"))
            v.storedStatus = .approved
            try tx.update(v)
        }
        #expect(try store.claimedMessageState(messageID: "msg_2", owner: "A") == .verificationEnded)
        #expect(try store.claimedMessageState(messageID: "msg_unknown", owner: "A") == .superseded)
        // A message whose verification row is gone (purged) is judged by its own expiry.
        try store.write { tx in try tx.enqueue(message("msg_orphan", for: "ver_gone")) }
        _ = try store.claimDue(limit: 5, now: t0, leaseUntil: t0.addingTimeInterval(60), owner: "A")
        #expect(try store.claimedMessageState(messageID: "msg_orphan", owner: "A") == .deliverable)
    }
}
