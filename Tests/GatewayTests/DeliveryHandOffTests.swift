import Foundation
import Gateways
import Stores
import Testing
import VerifyCore
import VerifyTesting

/// A gateway recording the code of each message it sends, optionally slowly.
final class CodeRecordingGateway: SMSGateway, @unchecked Sendable {
    let name = "recording"
    private let lock = NSLock()
    private var codes: [String: String] = [:]
    let delay: Double

    init(delay: Double = 0) { self.delay = delay }

    func send(_ sms: SMS) -> GatewayResult {
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        lock.lock()
        codes[sms.messageID] = sms.code
        lock.unlock()
        return .sent(via: name, providerMessageID: nil, status: .sent)
    }

    var sent: [String: String] {
        lock.lock()
        defer { lock.unlock() }
        return codes
    }
}

/// Messages queued under the local worker's lease are delivered from memory after the commit.
@Suite struct DeliveryHandOffTests {
    func worker(_ store: SQLiteStore, _ gateway: any SMSGateway, _ tune: (inout DeliveryConfiguration) -> Void = { _ in }) -> DeliveryWorker {
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
        let gateway = CodeRecordingGateway()
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

    @Test func stoppingReleasesHandedMessagesNotYetSent() throws {
        let store = try temporaryStore()
        defer { store.close() }
        let gateway = CodeRecordingGateway(delay: 0.3)
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
}
