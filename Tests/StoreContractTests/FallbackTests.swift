import Foundation
import Testing
import VerifyCore

/// The fallbacks of an `auto` send (docs/GATEWAYS.md, "auto") in every store: a pending fallback
/// is not the delivery; a failed or undelivered message makes its fallback due at once; a
/// delivered one drops the verification's pending fallbacks; each message keeps its channel.
@Suite struct FallbackTests {
    /// ver_1: msg_1 by WhatsApp now, msg_2 its SMS fallback in 60 s; msg_1 claimed by "A".
    func queued(_ store: any VerificationStore & OutboxStore) throws {
        try store.write { tx in
            try tx.insert(sample("ver_1"))
            var first = message("msg_1")
            first.channel = .whatsapp
            var fallback = message("msg_2")
            fallback.channel = .sms
            fallback.fallbackOf = "msg_1"
            fallback.nextAttemptAt = t0.addingTimeInterval(60)
            try tx.enqueue(first)
            try tx.enqueue(fallback)
        }
        let claimed = try store.claimDue(limit: 10, now: t0, leaseUntil: t0.addingTimeInterval(30), owner: "A")
        #expect(claimed.map(\.id) == ["msg_1"])
        #expect(claimed.first?.channel == .whatsapp)
    }

    func outcome(_ status: DeliveryStatus, provider: String? = "wamid.1", at: Date) -> OutboxOutcome {
        OutboxOutcome(
            messageID: "msg_1", status: status, gateway: "meta-whatsapp", providerMessageID: provider,
            lastError: status == .failed ? "not on WhatsApp" : nil, nextAttemptAt: nil, attempts: 1, at: at)
    }

    func due(_ store: any VerificationStore & OutboxStore, at: Date) throws -> [OutboxMessage] {
        try store.claimDue(limit: 10, now: at, leaseUntil: at.addingTimeInterval(30), owner: "B")
    }

    @Test(arguments: StoreKind.allCases)
    func theFallbackWaitsForItsTimeAndIsNotTheDelivery(kind: StoreKind) throws {
        let store = try kind.make()
        try queued(store)
        try store.complete([outcome(.sent, at: t0.addingTimeInterval(1))], owner: "A")
        let latest = try store.read { try $0.latestMessage(verificationID: "ver_1") }
        #expect(latest?.id == "msg_1" && latest?.channel == .whatsapp)
        #expect(try due(store, at: t0.addingTimeInterval(59)).isEmpty)
        let fallback = try due(store, at: t0.addingTimeInterval(60))
        #expect(fallback.map(\.id) == ["msg_2"])
        #expect(fallback.first?.channel == .sms && fallback.first?.fallbackOf == "msg_1")
        #expect(fallback.first?.sealedPayload == [9, 9, 9])
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedSendMakesTheFallbackDueAtOnce(kind: StoreKind) throws {
        let store = try kind.make()
        try queued(store)
        try store.complete([outcome(.failed, provider: nil, at: t0.addingTimeInterval(2))], owner: "A")
        #expect(try due(store, at: t0.addingTimeInterval(2)).map(\.id) == ["msg_2"])
    }

    @Test(arguments: StoreKind.allCases)
    func anUndeliveredReceiptMakesTheFallbackDue(kind: StoreKind) throws {
        let store = try kind.make()
        try queued(store)
        try store.complete([outcome(.sent, at: t0.addingTimeInterval(1))], owner: "A")
        #expect(try store.recordReceipt(gateway: "meta-whatsapp", providerMessageID: "wamid.1", status: .undelivered, error: "131026", at: t0.addingTimeInterval(5)))
        #expect(try due(store, at: t0.addingTimeInterval(5)).map(\.id) == ["msg_2"])
    }

    @Test(arguments: StoreKind.allCases)
    func aDeliveredReceiptDropsThePendingFallback(kind: StoreKind) throws {
        let store = try kind.make()
        try queued(store)
        try store.complete([outcome(.sent, at: t0.addingTimeInterval(1))], owner: "A")
        #expect(try store.recordReceipt(gateway: "meta-whatsapp", providerMessageID: "wamid.1", status: .delivered, error: nil, at: t0.addingTimeInterval(5)))
        #expect(try due(store, at: t0.addingTimeInterval(600)).isEmpty)
        #expect(try store.queueDepth().count == 0)
        #expect(try store.read { try $0.latestMessage(verificationID: "ver_1") }?.status == .delivered)
    }

    @Test(arguments: StoreKind.allCases)
    func aDeliveredReceiptHeldEarlyAlsoDropsIt(kind: StoreKind) throws {
        let store = try kind.make()
        try queued(store)
        #expect(try store.recordReceipt(gateway: "meta-whatsapp", providerMessageID: "wamid.1", status: .delivered, error: nil, at: t0.addingTimeInterval(1)) == false)
        try store.complete([outcome(.sent, at: t0.addingTimeInterval(2))], owner: "A")
        #expect(try due(store, at: t0.addingTimeInterval(600)).isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func anUpdateKeepsTheVerificationsNewChannel(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { tx in try tx.insert(sample("ver_1")) }
        try store.write(reading: ReadSet(verifications: ["ver_1"])) { tx in
            var v = try #require(try tx.verification(id: "ver_1"))
            v.channel = "call"
            v.sends = 2
            try tx.update(v)
        }
        let v = try store.read { try $0.verification(id: "ver_1") }
        #expect(v?.channel == "call" && v?.sends == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func aResendSupersedesThePendingFallback(kind: StoreKind) throws {
        let store = try kind.make()
        try queued(store)
        try store.write { tx in try tx.supersedeQueuedMessages(verificationID: "ver_1", reason: "superseded by a resend", now: t0) }
        #expect(try due(store, at: t0.addingTimeInterval(600)).isEmpty)
    }
}
