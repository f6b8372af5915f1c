import Foundation
import Gateways
import SQLiteStore
import Testing
import VerifyCore
import VerifyTesting

/// Counts the outbox calls a worker makes, passing them to a real store.
final class CountingOutbox: OutboxStore, @unchecked Sendable {
    let store: SQLiteStore
    private let lock = NSLock()
    private var claimCalls = 0
    private var completeCalls = 0

    init(_ store: SQLiteStore) { self.store = store }

    var counts: (claims: Int, completions: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (claimCalls, completeCalls)
    }

    func claimDue(limit: Int, now: Date, leaseUntil: Date, owner: String) throws -> [OutboxMessage] {
        lock.lock(); claimCalls += 1; lock.unlock()
        return try store.claimDue(limit: limit, now: now, leaseUntil: leaseUntil, owner: owner)
    }
    func complete(_ outcomes: [OutboxOutcome], owner: String, events: [String: WebhookEvent]) throws {
        lock.lock(); completeCalls += 1; lock.unlock()
        try store.complete(outcomes, owner: owner, events: events)
    }
    func releaseLeases(owner: String) throws { try store.releaseLeases(owner: owner) }
    func renewLeases(owner: String, ids: [String], until: Date) throws -> Int { try store.renewLeases(owner: owner, ids: ids, until: until) }
    func recordReceipt(
        gateway: String, providerMessageID: String, status: DeliveryStatus, error: String?, at: Date, event: ReceiptEvent?
    ) throws -> Bool {
        try store.recordReceipt(gateway: gateway, providerMessageID: providerMessageID, status: status, error: error, at: at, event: event)
    }
    func claimedMessageState(messageID: String, owner: String) throws -> ClaimedMessageState {
        try store.claimedMessageState(messageID: messageID, owner: owner)
    }
    func queueDepth() throws -> (count: Int, oldest: Date?) { try store.queueDepth() }
    func purge(endedBefore cutoff: Date, idempotencyBefore: Date) throws -> Int { try store.purge(endedBefore: cutoff, idempotencyBefore: idempotencyBefore) }
}

/// Messages queued under the local worker's lease are delivered from memory after the commit.
@Suite struct DeliveryHandOffTests {
    func worker(_ store: SQLiteStore, _ gateway: any MessageGateway, _ tune: (inout DeliveryConfiguration) -> Void = { _ in }) -> DeliveryWorker {
        var configuration = DeliveryConfiguration()
        tune(&configuration)
        return DeliveryWorker(
            outbox: store, gateway: gateway, sealer: FakeSealer(), clock: SystemClock(), random: SeededRandom(),
            logger: .disabled, devLog: nil, configuration: configuration, owner: "local")
    }

    func temporaryStore() throws -> SQLiteStore {
        try SQLiteStore(path: NSTemporaryDirectory() + "pv-handoff-\(UUID().uuidString)/db.sqlite")
    }

    /// Queues `ids` under `lease` and hands them to `worker` with `code` as the in-memory payload.
    func handOff(_ ids: [String], to worker: DeliveryWorker, store: SQLiteStore, lease: OutboxLease, code: String) throws {
        let now = Date()
        let sealed = try FakeSealer().seal(Array(try JSONEncoder().encode(
            MessagePayload(body: "sealed", code: "000000", locale: nil, display: "+1 555-555-0123"))))
        let messages = ids.map {
            OutboxMessage(
                id: $0, verificationID: "ver_" + $0, to: "+15555550123", purpose: .signIn, sealedPayload: sealed,
                createdAt: now, updatedAt: now, nextAttemptAt: now, expiresAt: now.addingTimeInterval(300))
        }
        try store.write { tx in for m in messages { try tx.enqueue(m, lease: lease) } }
        for m in messages {
            worker.handOff(m, payload: MessagePayload(body: "memory", code: code, locale: nil, display: "+1 555-555-0123"))
        }
    }

    @Test func aRunningWorkerDeliversHandedMessagesFromMemory() throws {
        let store = try temporaryStore()
        defer { store.close() }
        let gateway = CountingGateway()
        let w = worker(store, gateway)
        #expect(w.handOffLease(now: Date()) == nil)  // not started: messages go through the store
        w.start()
        defer { w.stop() }
        let lease = try #require(w.handOffLease(now: Date()))
        #expect(lease.owner == "local")
        try handOff(["msg_a", "msg_b"], to: w, store: store, lease: lease, code: "654321")
        let deadline = Date().addingTimeInterval(10)
        while try (gateway.sent.count < 2 || store.queueDepth().count > 0) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        // The payload came from memory (the sealed one says 000000), and the outcome was recorded.
        #expect(gateway.sent == ["msg_a": "654321", "msg_b": "654321"])
        #expect(try store.queueDepth().count == 0)
    }

    /// Handed-over messages cost no claim, and their outcomes share store transactions.
    @Test func handedMessagesNeedNoClaimAndShareCompletions() throws {
        let store = try temporaryStore()
        defer { store.close() }
        let outbox = CountingOutbox(store)
        let gateway = CountingGateway(delay: 0.002)
        let w = DeliveryWorker(
            outbox: outbox, gateway: gateway, sealer: FakeSealer(), clock: SystemClock(), random: SeededRandom(),
            logger: .disabled, devLog: nil, configuration: DeliveryConfiguration(), owner: "local")
        w.start()
        let ids = (0..<200).map { "msg_\($0)" }
        let lease = try #require(w.handOffLease(now: Date()))
        try handOff(ids, to: w, store: store, lease: lease, code: "222222")
        let deadline = Date().addingTimeInterval(15)
        while try (gateway.sent.count < ids.count || store.queueDepth().count > 0) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        w.stop()
        #expect(gateway.sent.count == ids.count)
        #expect(try store.queueDepth().count == 0)
        let counts = outbox.counts
        #expect(counts.claims <= 4 * 2)  // the start-up look of each thread (and a poll, if one came due)
        #expect(counts.completions < ids.count / 2)
    }

    /// Rows due in the store (retries, leases of crashed workers) are still claimed once per
    /// poll interval while hand-offs keep the threads busy.
    @Test func theStoreIsStillPolledUnderSteadyHandOffs() throws {
        let store = try temporaryStore()
        defer { store.close() }
        let gateway = CountingGateway()
        let w = worker(store, gateway) { $0.pollInterval = 0.2 }
        w.start()
        defer { w.stop() }
        Thread.sleep(forTimeInterval: 0.3)  // past the start-up claim
        _ = try queue(store, count: 1, at: Date())  // "msg_0", unleased, nobody told the worker
        let deadline = Date().addingTimeInterval(5)
        var n = 0
        while gateway.sent["msg_0"] == nil && Date() < deadline {
            let lease = try #require(w.handOffLease(now: Date()))
            try handOff(["handed_\(n)"], to: w, store: store, lease: lease, code: "333333")
            n += 1
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(gateway.sent["msg_0"] != nil)
    }

    /// Only leases on messages the worker holds are renewed: a row leased to it that it never
    /// got (a commit whose answer was lost) lapses and is sent by another worker.
    @Test func leasesOnMessagesNotHeldLapse() throws {
        let store = try temporaryStore()
        defer { store.close() }
        let gateway = CountingGateway(delay: 0.3)
        let w = worker(store, gateway) { $0.threads = 1; $0.batchSize = 1; $0.leaseSeconds = 1 }
        w.start()
        defer { w.stop() }
        let lease = try #require(w.handOffLease(now: Date()))
        let now = Date()
        try store.write { tx in
            try tx.enqueue(OutboxMessage(
                id: "msg_orphan", verificationID: "ver_orphan", to: "+15555550123", purpose: .signIn, sealedPayload: [],
                createdAt: now, updatedAt: now, nextAttemptAt: now, expiresAt: now.addingTimeInterval(300)), lease: lease)
        }
        try handOff((0..<8).map { "msg_slow_\($0)" }, to: w, store: store, lease: lease, code: "444444")  // busy for 2.4 s
        Thread.sleep(forTimeInterval: 1.6)
        let rescued = try store.claimDue(limit: 10, now: Date(), leaseUntil: Date().addingTimeInterval(30), owner: "other")
        #expect(rescued.map(\.id).contains("msg_orphan"))
    }

    @Test func aHandOffAfterStopGoesBackToTheStore() throws {
        let store = try temporaryStore()
        defer { store.close() }
        let gateway = CountingGateway()
        let w = worker(store, gateway)
        w.start()
        let lease = try #require(w.handOffLease(now: Date()))
        w.stop()
        try handOff(["msg_late"], to: w, store: store, lease: lease, code: "555555")
        #expect(gateway.sent.isEmpty)
        let claimed = try store.claimDue(limit: 10, now: Date(), leaseUntil: Date().addingTimeInterval(30), owner: "next")
        #expect(claimed.map(\.id) == ["msg_late"])
    }

    @Test func stoppingReleasesHandedMessagesNotYetSent() throws {
        let store = try temporaryStore()
        defer { store.close() }
        let gateway = CountingGateway(delay: 0.3)
        let w = worker(store, gateway) { $0.threads = 1; $0.batchSize = 1 }
        w.start()
        let lease = try #require(w.handOffLease(now: Date()))
        try handOff(["msg_1", "msg_2", "msg_3"], to: w, store: store, lease: lease, code: "111111")
        Thread.sleep(forTimeInterval: 0.1)
        w.stop()
        #expect(w.handOffLease(now: Date()) == nil)
        // What was not sent is claimable at once by another worker, not after the lease lapses.
        let rest = try store.claimDue(limit: 10, now: Date(), leaseUntil: Date().addingTimeInterval(30), owner: "other")
        #expect(rest.count == 3 - gateway.sent.count)
        #expect(rest.count >= 1)
        #expect(Set(rest.map(\.id)).isDisjoint(with: Set(gateway.sent.keys)))
    }

    /// Holds the first message at the gateway until released, then sends like CountingGateway.
    final class GateGateway: MessageGateway, @unchecked Sendable {
        let name = "gate"
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var ids: [String] = []

        func send(_ sms: OutboundMessage) -> GatewayResult {
            lock.lock()
            let first = ids.isEmpty
            ids.append(sms.messageID)
            lock.unlock()
            if first {
                entered.signal()
                release.wait()
            }
            return .sent(via: name, providerMessageID: "p-" + sms.messageID, status: .sent)
        }

        var sent: [String] { lock.lock(); defer { lock.unlock() }; return ids }
    }

    /// Handed over together, the four usually land in one thread's batch (16), so the later ones
    /// wait there behind msg_1; handed over after msg_1 is with the gateway, they wait in memory.
    @Test(arguments: [true, false])
    func messagesSupersededWhileHeldInMemoryAreNotSent(handedTogether: Bool) throws {
        let store = try temporaryStore()
        defer { store.close() }
        let gateway = GateGateway()
        let w = worker(store, gateway) { $0.threads = 1 }
        w.start()
        defer { w.stop() }
        let lease = try #require(w.handOffLease(now: Date()))
        let later = ["msg_2", "msg_3", "msg_4"]
        try handOff(handedTogether ? ["msg_1"] + later : ["msg_1"], to: w, store: store, lease: lease, code: "222222")
        #expect(gateway.entered.wait(timeout: .now() + 5) == .success)  // msg_1 is with the gateway
        if !handedTogether { try handOff(later, to: w, store: store, lease: lease, code: "222222") }
        // A resend or cancel of msg_2's and msg_4's verifications: rows superseded, then the worker told.
        for id in ["ver_msg_2", "ver_msg_4"] {
            try store.write { tx in try tx.supersedeQueuedMessages(verificationID: id, reason: "superseded by a resend", now: Date()) }
            w.messagesSuperseded(verificationID: id)
        }
        gateway.release.signal()
        let deadline = Date().addingTimeInterval(10)
        while !gateway.sent.contains("msg_3") && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        w.stop()
        #expect(gateway.sent == ["msg_1", "msg_3"])
    }

    @Test func aHandOffArrivingAfterItsSupersedeIsNotSent() throws {
        let store = try temporaryStore()
        defer { store.close() }
        let gateway = GateGateway()
        gateway.release.signal()  // nothing is held back
        let w = worker(store, gateway)
        w.start()
        defer { w.stop() }
        let lease = try #require(w.handOffLease(now: Date()))
        w.messagesSuperseded(verificationID: "ver_msg_late")  // a resend committed before the start's hand-off
        try handOff(["msg_late", "msg_other"], to: w, store: store, lease: lease, code: "333333")
        let deadline = Date().addingTimeInterval(10)
        while !gateway.sent.contains("msg_other") && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(gateway.sent == ["msg_other"])
    }

    /// Every approval reports a supersede, so the memory of them is bounded: the newest are kept
    /// (a late hand-off comes within milliseconds), the oldest leave.
    @Test func theMemoryOfSupersedesIsBoundedAndKeepsTheNewest() throws {
        let store = try temporaryStore()
        defer { store.close() }
        let gateway = GateGateway()
        gateway.release.signal()
        let w = worker(store, gateway)
        w.start()
        defer { w.stop() }
        let lease = try #require(w.handOffLease(now: Date()))
        w.messagesSuperseded(verificationID: "ver_msg_oldest")
        for n in 0..<(DeliveryWorker.supersededCapacity + 100) { w.messagesSuperseded(verificationID: "ver_filler_\(n)") }
        w.messagesSuperseded(verificationID: "ver_msg_newest")
        try handOff(["msg_newest", "msg_oldest"], to: w, store: store, lease: lease, code: "444444")
        let deadline = Date().addingTimeInterval(10)
        while !gateway.sent.contains("msg_oldest") && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(gateway.sent == ["msg_oldest"])  // evicted from the memory of supersedes: sent
    }
}
