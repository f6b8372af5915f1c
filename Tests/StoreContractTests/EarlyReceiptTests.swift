import Foundation
import Testing
import VerifyCore

/// A vendor may call back before the delivery worker has recorded the send (its provider id):
/// every store holds that receipt and applies it when the send is recorded.
@Suite struct EarlyReceiptTests {
    func sent(_ id: String, gateway: String, provider: String, at: Date = t0) -> OutboxOutcome {
        OutboxOutcome(messageID: id, status: .sent, gateway: gateway, providerMessageID: provider, lastError: nil, nextAttemptAt: nil, attempts: 1, at: at)
    }

    func claimed(_ store: any VerificationStore & OutboxStore, _ ids: String...) throws {
        try store.write { tx in
            for id in ids {
                let verification = id.replacingOccurrences(of: "msg_", with: "ver_")
                try tx.insert(sample(verification))
                try tx.enqueue(message(id, for: verification))
            }
        }
        #expect(try store.claimDue(limit: ids.count, now: t0, leaseUntil: t0.addingTimeInterval(60), owner: "A").count == ids.count)
    }

    func status(_ store: any VerificationStore & OutboxStore, _ id: String) throws -> OutboxMessage? {
        try store.read { try $0.latestMessage(verificationID: id.replacingOccurrences(of: "msg_", with: "ver_")) }
    }

    @Test(arguments: StoreKind.allCases)
    func aReceiptBeforeTheSendIsRecordedIsAppliedWhenItIs(kind: StoreKind) throws {
        let store = try kind.make()
        try claimed(store, "msg_1", "msg_2")
        #expect(try store.recordReceipt(gateway: "twilio", providerMessageID: "SM1", status: .sent, error: nil, at: t0.addingTimeInterval(1)) == false)
        #expect(try store.recordReceipt(gateway: "twilio", providerMessageID: "SM1", status: .delivered, error: nil, at: t0.addingTimeInterval(2)) == false)
        // Held receipts follow the same order as applied ones: a late "sent" does not undo "delivered".
        #expect(try store.recordReceipt(gateway: "twilio", providerMessageID: "SM1", status: .sent, error: nil, at: t0.addingTimeInterval(3)) == false)
        // Another gateway's id is another message.
        #expect(try store.recordReceipt(gateway: "vonage", providerMessageID: "SM1", status: .failed, error: "vonage error 1", at: t0) == false)
        #expect(try status(store, "msg_1")?.status == .queued)

        try store.complete([sent("msg_1", gateway: "twilio", provider: "SM1")], owner: "A")
        let first = try #require(try status(store, "msg_1"))
        #expect(first.status == .delivered && first.gateway == "twilio" && first.lastError == nil)
        #expect(first.updatedAt == t0.addingTimeInterval(2))
        #expect(try store.recordReceipt(gateway: "twilio", providerMessageID: "SM1", status: .sent, error: nil, at: t0.addingTimeInterval(4)))

        // The held receipt was used up: a second message with the same id is only "sent".
        try store.complete([sent("msg_2", gateway: "twilio", provider: "SM1")], owner: "A")
        #expect(try status(store, "msg_2")?.status == .sent)
    }

    @Test(arguments: StoreKind.allCases)
    func aHeldFailureIsAppliedWithItsError(kind: StoreKind) throws {
        let store = try kind.make()
        try claimed(store, "msg_1")
        #expect(try store.recordReceipt(gateway: "vonage", providerMessageID: "V-1", status: .failed, error: "vonage error 9", at: t0.addingTimeInterval(1)) == false)
        // "sent" never replaces "failed", held or not.
        #expect(try store.recordReceipt(gateway: "vonage", providerMessageID: "V-1", status: .sent, error: nil, at: t0.addingTimeInterval(2)) == false)
        try store.complete([sent("msg_1", gateway: "vonage", provider: "V-1", at: t0.addingTimeInterval(3))], owner: "A")
        let message = try #require(try status(store, "msg_1"))
        #expect(message.status == .failed && message.lastError == "vonage error 9")
        #expect(message.updatedAt == t0.addingTimeInterval(3))
    }

    @Test(arguments: StoreKind.allCases)
    func receiptsNeverMatchedArePurged(kind: StoreKind) throws {
        let store = try kind.make()
        try claimed(store, "msg_1", "msg_2")
        #expect(try store.recordReceipt(gateway: "twilio", providerMessageID: "SM-old", status: .delivered, error: nil, at: t0) == false)
        #expect(try store.recordReceipt(gateway: "twilio", providerMessageID: "SM-new", status: .delivered, error: nil, at: t0.addingTimeInterval(20)) == false)
        _ = try store.purge(endedBefore: t0.addingTimeInterval(10))
        try store.complete([sent("msg_1", gateway: "twilio", provider: "SM-old"), sent("msg_2", gateway: "twilio", provider: "SM-new")], owner: "A")
        #expect(try status(store, "msg_1")?.status == .sent)
        #expect(try status(store, "msg_2")?.status == .delivered)
    }
}
