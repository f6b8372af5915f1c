import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// The events outbox (docs/EVENTS.md) behaves the same in every store: written with the change,
/// once per id, claimed under leases, retried, purged when it ended.
@Suite struct EventOutboxTests {
    func event(_ id: String, at: Date = t0, type: EventType = .verificationStarted) -> WebhookEvent {
        WebhookEvent(id: id, type: type, createdAt: at, body: #"{"type":"\#(type.rawValue)","timestamp":"x","data":{"n":"\#(id)"}}"#)
    }

    func events(_ store: any VerificationStore & OutboxStore) throws -> any EventOutboxStore {
        try #require(store as? any EventOutboxStore)
    }

    @Test(arguments: StoreKind.allCases)
    func anEventIsWrittenWithItsChangeAndOnlyOnce(kind: StoreKind) throws {
        let store = try kind.make()
        let outbox = try events(store)
        try store.write { tx in
            try tx.insert(sample("ver_1"))
            try tx.insertEvent(event("evt_1"))
            try tx.insertEvent(event("evt_1"))  // the same id again: ignored, not an error
        }
        // A body that throws writes no event either.
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try store.write { tx in
                try tx.insertEvent(event("evt_2"))
                throw Refused()
            }
        }
        try store.write { tx in try tx.insertEvent(event("evt_1", at: t0.addingTimeInterval(5))) }
        #expect(try outbox.pendingEvents() == 1)
        let claimed = try outbox.claimEvents(limit: 10, now: t0, leaseUntil: t0.addingTimeInterval(30), owner: "A")
        #expect(claimed == [PendingEvent(event: event("evt_1"), attempts: 0)])
    }

    @Test(arguments: StoreKind.allCases)
    func aClaimedEventIsNobodyElsesUntilItsLeaseLapses(kind: StoreKind) throws {
        let store = try kind.make()
        let outbox = try events(store)
        try store.write { tx in for i in 1...3 { try tx.insertEvent(event("evt_\(i)", at: t0.addingTimeInterval(Double(i)))) } }
        let a = try outbox.claimEvents(limit: 2, now: t0.addingTimeInterval(5), leaseUntil: t0.addingTimeInterval(20), owner: "A")
        #expect(a.map(\.event.id) == ["evt_1", "evt_2"])
        let b = try outbox.claimEvents(limit: 10, now: t0.addingTimeInterval(6), leaseUntil: t0.addingTimeInterval(20), owner: "B")
        #expect(b.map(\.event.id) == ["evt_3"])
        // A crashed owner's events come back once the lease lapsed.
        let later = try outbox.claimEvents(limit: 10, now: t0.addingTimeInterval(21), leaseUntil: t0.addingTimeInterval(40), owner: "B")
        #expect(later.map(\.event.id) == ["evt_1", "evt_2", "evt_3"])
        // An owner whose lease was taken over records nothing.
        try outbox.completeEvents([EventOutcome(eventID: "evt_1", status: .delivered, attempts: 1, nextAttemptAt: nil, lastError: nil, at: t0)], owner: "A")
        #expect(try outbox.pendingEvents() == 3)
        try outbox.releaseEventLeases(owner: "B")
        #expect(try outbox.claimEvents(limit: 10, now: t0.addingTimeInterval(22), leaseUntil: t0.addingTimeInterval(40), owner: "C").count == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func outcomesRetryDeliverFailAndThePurgeRemovesEndedEvents(kind: StoreKind) throws {
        let store = try kind.make()
        let outbox = try events(store)
        try store.write { tx in for i in 1...3 { try tx.insertEvent(event("evt_\(i)")) } }
        let lease = t0.addingTimeInterval(30)
        _ = try outbox.claimEvents(limit: 10, now: t0, leaseUntil: lease, owner: "A")
        try outbox.completeEvents([
            EventOutcome(eventID: "evt_1", status: .delivered, attempts: 1, nextAttemptAt: nil, lastError: nil, at: t0),
            EventOutcome(eventID: "evt_2", status: .queued, attempts: 1, nextAttemptAt: t0.addingTimeInterval(10), lastError: "HTTP 500", at: t0),
            EventOutcome(eventID: "evt_3", status: .failed, attempts: 1, nextAttemptAt: nil, lastError: "HTTP 500", at: t0),
        ], owner: "A")
        #expect(try outbox.pendingEvents() == 1)
        #expect(try outbox.claimEvents(limit: 10, now: t0.addingTimeInterval(9), leaseUntil: lease, owner: "B").isEmpty)
        let retried = try outbox.claimEvents(limit: 10, now: t0.addingTimeInterval(10), leaseUntil: lease, owner: "B")
        #expect(retried == [PendingEvent(event: event("evt_2"), attempts: 1)])  // the same id: the same webhook-id
        _ = try store.purge(endedBefore: t0.addingTimeInterval(1))
        // Delivered and failed events are gone; the queued one stays, and ids can be reused only then.
        try store.write { tx in
            try tx.insertEvent(event("evt_1"))
            try tx.insertEvent(event("evt_2", at: t0.addingTimeInterval(99)))
        }
        #expect(try outbox.pendingEvents() == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func aSendsEventIsWrittenOnlyWhenItsOutcomeIsRecorded(kind: StoreKind) throws {
        let store = try kind.make()
        let outbox = try events(store)
        try store.write { tx in
            for id in ["ver_1", "ver_2"] {
                try tx.insert(sample(id))
                var queued = message(id.replacingOccurrences(of: "ver_", with: "msg_"), for: id)
                queued.channel = id == "ver_1" ? .whatsapp : .sms
                try tx.enqueue(queued)
            }
        }
        _ = try store.claimDue(limit: 2, now: t0, leaseUntil: t0.addingTimeInterval(60), owner: "A")
        let sent = OutboxOutcome(messageID: "msg_1", status: .sent, gateway: "twilio", providerMessageID: "SM1", lastError: nil,
                                 nextAttemptAt: nil, attempts: 1, at: t0)
        // msg_2's outcome comes from an owner that does not hold it: not recorded, no event.
        let stranger = OutboxOutcome(messageID: "msg_2", status: .sent, gateway: "twilio", providerMessageID: "SM2", lastError: nil,
                                     nextAttemptAt: nil, attempts: 1, at: t0)
        try store.complete([sent], owner: "A", events: ["msg_1": event("evt_sent", type: .deliveryUpdated)])
        try store.complete([stranger], owner: "B", events: ["msg_2": event("evt_stranger", type: .deliveryUpdated)])
        let recorder = EventRecorder(random: SeededRandom(seed: 1))
        let receipt = try #require(recorder.receipt(gateway: "twilio", providerMessageID: "SM1", status: .delivered, error: nil, at: t0))
        #expect(try store.recordReceipt(gateway: "twilio", providerMessageID: "SM1", status: .delivered, error: nil, at: t0, event: receipt))
        // A receipt "sent" repeats what the send reported: no event at all.
        #expect(recorder.receipt(gateway: "twilio", providerMessageID: "SM1", status: .sent, error: nil, at: t0) == nil)
        // The vendor repeats "delivered": the same event id, written once.
        let again = try #require(recorder.receipt(gateway: "twilio", providerMessageID: "SM1", status: .delivered, error: nil, at: t0))
        #expect(again.id == receipt.id && receipt.id == "evt_dlv_twilio_SM1_delivered")
        #expect(try store.recordReceipt(gateway: "twilio", providerMessageID: "SM1", status: .delivered, error: nil, at: t0, event: again))
        let claimed = try outbox.claimEvents(limit: 10, now: t0, leaseUntil: t0.addingTimeInterval(30), owner: "A")
        #expect(Set(claimed.map(\.event.id)) == ["evt_sent", receipt.id])
        let delivered = try #require(claimed.first { $0.event.id == receipt.id })
        let data = try #require(try JSONValue.parse(Array(delivered.event.body.utf8))["data"])
        #expect(data["message_id"]?.stringValue == "msg_1" && data["verification_id"]?.stringValue == "ver_1")
        #expect(data["status"]?.stringValue == "delivered" && data["provider_message_id"]?.stringValue == "SM1")
        // The channel the message went by, from the message the receipt applies to.
        #expect(data["channel"]?.stringValue == "whatsapp")
    }
}
