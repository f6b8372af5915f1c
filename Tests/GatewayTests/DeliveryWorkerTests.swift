import Foundation
import Gateways
import SQLiteStore
import Telemetry
import Testing
import VerifyCore
import VerifyTesting

/// A gateway counting sends per message id and keeping each message's code, optionally slow.
final class CountingGateway: MessageGateway, @unchecked Sendable {
    let name = "counting"
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var codes: [String: String] = [:]
    let delay: Double

    init(delay: Double = 0) { self.delay = delay }

    func send(_ sms: OutboundMessage) -> GatewayResult {
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        lock.lock()
        counts[sms.messageID, default: 0] += 1
        codes[sms.messageID] = sms.code
        lock.unlock()
        return .sent(via: name, providerMessageID: "p-" + sms.messageID, status: .sent)
    }

    var sends: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }

    /// The code of each message sent (the last one sent, for a message sent twice).
    var sent: [String: String] {
        lock.lock()
        defer { lock.unlock() }
        return codes
    }
}

func queue(_ store: any VerificationStore, count: Int, at now: Date, expires: TimeInterval = 300) throws -> [String] {
    let payload = MessagePayload(body: "Your code is 123456", code: "123456", locale: nil, display: "+1 555-555-0123")
    let sealed = try FakeSealer().seal(Array(try JSONEncoder().encode(payload)))
    let ids = (0..<count).map { "msg_\($0)" }
    try store.write { tx in
        for id in ids {
            try tx.enqueue(OutboxMessage(
                id: id, verificationID: "ver_" + id, to: "+15555550123", purpose: .signIn, sealedPayload: sealed,
                createdAt: now, updatedAt: now, nextAttemptAt: now, expiresAt: now.addingTimeInterval(expires)))
        }
    }
    return ids
}

@Suite struct DeliveryWorkerTests {
    func worker(_ store: some OutboxStore, _ gateway: any MessageGateway, clock: any Clock, owner: String = "w1", _ tune: (inout DeliveryConfiguration) -> Void = { _ in }) -> DeliveryWorker {
        var configuration = DeliveryConfiguration()
        tune(&configuration)
        return DeliveryWorker(
            outbox: store, gateway: gateway, sealer: FakeSealer(), clock: clock, random: SeededRandom(), logger: .disabled,
            devLog: nil, configuration: configuration, owner: owner)
    }

    @Test func retryableFailuresBackOffWithJitterAndHonourRetryAfter() throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        _ = try queue(store, count: 1, at: clock.now())
        let gateway = RecordingGateway(script: [
            .retryable(reason: "timeout", retryAfter: nil), .retryable(reason: "429", retryAfter: 20), .retryable(reason: "500", retryAfter: nil),
        ])
        let w = worker(store, gateway, clock: clock)
        #expect(w.runOnce() == 1)
        var m = try #require(store.messages.first)
        #expect(m.status == .queued && m.attempts == 1 && m.lastError == "timeout")
        let first = m.nextAttemptAt.timeIntervalSince(clock.now())
        #expect(first >= 0.5 && first <= 1.0)
        #expect(w.runOnce() == 0)  // not due yet
        clock.advance(first)
        #expect(w.runOnce() == 1)
        m = try #require(store.messages.first)
        #expect(m.nextAttemptAt.timeIntervalSince(clock.now()) == 20)  // Retry-After beats the 1–2 s backoff
        clock.advance(20)
        #expect(w.runOnce() == 1)
        m = try #require(store.messages.first)
        let third = m.nextAttemptAt.timeIntervalSince(clock.now())
        #expect(third >= 2 && third <= 4)
        clock.advance(third)
        #expect(w.runOnce() == 1)
        m = try #require(store.messages.first)
        #expect(m.status == .sent && m.attempts == 4 && m.sealedPayload.isEmpty && m.providerMessageID == "prov_4")
    }

    @Test func permanentFailuresAreNotRetried() throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        _ = try queue(store, count: 1, at: clock.now())
        let w = worker(store, RecordingGateway(script: [.permanent(reason: "invalid number")]), clock: clock)
        #expect(w.runOnce() == 1)
        let m = try #require(store.messages.first)
        #expect(m.status == .failed && m.lastError == "invalid number" && m.sealedPayload.isEmpty)
        clock.advance(3600)
        #expect(w.runOnce() == 0)
    }

    @Test func vendorsTextsLoseTheCodeAndTheNumberBeforeTheLogAndTheAPI() throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        _ = try queue(store, count: 1, at: clock.now())
        let logs = CapturingLogHandler()
        let gateway = RecordingGateway(script: [
            .retryable(reason: "twilio: HTTP 400 code 21608: The number +15555550123 is unverified", retryAfter: nil),
            .permanent(reason: #"webhook: HTTP 422 {"to":"15555550123","code":"123456"}"#),
        ])
        let w = DeliveryWorker(
            outbox: store, gateway: gateway, sealer: FakeSealer(), clock: clock, random: SeededRandom(),
            logger: Logger(handler: logs, minimumLevel: .debug), devLog: nil, configuration: DeliveryConfiguration(), owner: "w1")
        #expect(w.runOnce() == 1)
        #expect(store.messages.first?.lastError == "twilio: HTTP 400 code 21608: The number [redacted] is unverified")
        clock.advance(10)
        #expect(w.runOnce() == 1)
        let failed = try #require(store.messages.first)
        #expect(failed.status == .failed && failed.lastError == #"webhook: HTTP 422 {"to":"[redacted]","code":"[redacted]"}"#)
        let written = logs.records.map { "\($0.message) \($0.fields)" }.joined(separator: "\n")
        #expect(written.contains("[redacted]"))
        #expect(!written.contains("123456") && !written.contains("5555550123"))
    }

    /// Twilio echoes a call's form-encoded Twiml, Vonage its NCCO: the code is spelled out there.
    @Test func anEchoedVoiceRequestLosesTheSpelledCode() throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        _ = try queue(store, count: 1, at: clock.now())
        let logs = CapturingLogHandler()
        let gateway = RecordingGateway(script: [
            .permanent(reason: "twilio-voice code 12100: Twiml=%3CResponse%3E%3CSay%3EYour+code+is+1%2C+2%2C+3%2C+4%2C+5%2C+6.%3C%2FSay%3E"),
        ])
        let w = DeliveryWorker(
            outbox: store, gateway: gateway, sealer: FakeSealer(), clock: clock, random: SeededRandom(),
            logger: Logger(handler: logs, minimumLevel: .debug), devLog: nil, configuration: DeliveryConfiguration(), owner: "w1")
        #expect(w.runOnce() == 1)
        let failed = try #require(store.messages.first)
        #expect(failed.lastError == "twilio-voice code 12100: Twiml=%3CResponse%3E%3CSay%3EYour+code+is+[redacted].%3C%2FSay%3E")
        let written = logs.records.map { "\($0.message) \($0.fields)" }.joined(separator: "\n")
        #expect(written.contains("[redacted]") && !written.contains("1%2C+2"))
    }

    @Test func givesUpAfterMaxAttemptsAndNeverSendsAnExpiredCode() throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        _ = try queue(store, count: 1, at: clock.now())
        let gateway = RecordingGateway(script: Array(repeating: .retryable(reason: "down", retryAfter: nil), count: 10))
        let w = worker(store, gateway, clock: clock) { $0.maxAttempts = 3 }
        for _ in 0..<3 {
            _ = w.runOnce()
            clock.advance(120)
        }
        #expect(store.messages.first?.status == .failed)
        #expect(gateway.sent.count == 3)

        let late = InMemoryStore()
        _ = try queue(late, count: 1, at: clock.now(), expires: 10)
        clock.advance(11)
        let silent = RecordingGateway()
        _ = worker(late, silent, clock: clock).runOnce()
        #expect(silent.sent.isEmpty)
        #expect(late.messages.first?.status == .failed)
        #expect(late.messages.first?.lastError == "code expired before delivery")
    }

    /// A Retry-After beyond the code's expiry ends the message at once (payload erased) instead of
    /// keeping the sealed code queued for a try that could only be refused.
    @Test func aRetryAfterBeyondTheExpiryFailsTheMessageNow() throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        _ = try queue(store, count: 1, at: clock.now(), expires: 30)
        let gateway = RecordingGateway(script: [.retryable(reason: "503", retryAfter: 86_400)])
        #expect(worker(store, gateway, clock: clock).runOnce() == 1)
        let m = try #require(store.messages.first)
        #expect(m.status == .failed && m.sealedPayload.isEmpty)
        #expect(m.lastError == "503 (the code expires before the next try)")
    }

    /// A claimed message (a retry or a resend) superseded while it waits in a batch behind slower
    /// sends is not sent: its row is read again just before.
    @Test func aClaimedMessageSupersededWhileWaitingInItsBatchIsNotSent() throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        _ = try queue(store, count: 2, at: clock.now())
        let gateway = SupersedingGateway { try store.write { tx in try tx.supersedeQueuedMessages(verificationID: "ver_msg_1", reason: "superseded by a resend", now: clock.now()) } }
        #expect(worker(store, gateway, clock: clock).runOnce() == 2)
        #expect(gateway.sent == ["msg_0"])
        #expect(store.messages.first { $0.id == "msg_1" }?.status == .failed)
        #expect(store.messages.first { $0.id == "msg_0" }?.status == .sent)
    }

    /// A message waiting for a retry when its verification is approved (or runs out of attempts)
    /// is not sent with the used code: the claim re-reads the verification, and the row fails.
    @Test func aMessageOfAnEndedVerificationIsNotSent() throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        let t0 = clock.now()
        try store.write { tx in
            try tx.insert(Verification(
                id: "ver_msg_0", phoneNumber: "+15555550123", display: "+1", region: "US", countryCode: 1, locale: nil,
                purpose: .signIn, codeHash: [1], codeLength: 6, maxAttempts: 5, maxSends: 5, createdAt: t0,
                expiresAt: t0.addingTimeInterval(300), lastSentAt: t0, resendAvailableAt: t0))
        }
        _ = try queue(store, count: 1, at: t0)
        let gateway = RecordingGateway(script: [.retryable(reason: "503", retryAfter: 5)])
        let w = worker(store, gateway, clock: clock)
        #expect(w.runOnce() == 1)
        try store.write { tx in
            var v = try #require(try tx.verification(id: "ver_msg_0"))
            v.storedStatus = .approved
            try tx.update(v)
        }
        clock.advance(6)
        #expect(w.runOnce() == 1)
        #expect(gateway.sent.count == 1)  // only the first try
        let m = try #require(store.messages.first)
        #expect(m.status == .failed && m.lastError == "verification ended before delivery" && m.sealedPayload.isEmpty)
    }

    /// Two workers (threads of their own) on one SQLite file: every message is sent exactly once.
    @Test func twoWorkersNeverSendAMessageTwice() throws {
        let path = NSTemporaryDirectory() + "pv-worker-\(UUID().uuidString)/db.sqlite"
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        let ids = try queue(store, count: 300, at: Date())
        let gateway = CountingGateway(delay: 0.001)
        let a = worker(store, gateway, clock: SystemClock(), owner: "A") { $0.threads = 3; $0.batchSize = 8 }
        let b = worker(store, gateway, clock: SystemClock(), owner: "B") { $0.threads = 3; $0.batchSize = 8 }
        a.start()
        b.start()
        let deadline = Date().addingTimeInterval(20)
        while gateway.sends.count < ids.count && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        a.stop()
        b.stop()
        #expect(gateway.sends.count == 300)
        #expect(gateway.sends.values.allSatisfy { $0 == 1 })
        #expect(try store.queueDepth().count == 0)
    }

    /// A batch that takes longer than the lease keeps its lease (renewed), so nobody else sends it.
    @Test func slowBatchesKeepTheirLease() throws {
        let path = NSTemporaryDirectory() + "pv-lease-\(UUID().uuidString)/db.sqlite"
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        _ = try queue(store, count: 3, at: Date())
        let gateway = CountingGateway(delay: 1.0)
        let slow = worker(store, gateway, clock: SystemClock(), owner: "slow") { $0.threads = 1; $0.batchSize = 3; $0.leaseSeconds = 1 }
        slow.start()
        Thread.sleep(forTimeInterval: 0.3)
        // A rival polling every 0.2 s for 2.5 s never gets a message the slow worker holds.
        let rival = worker(store, gateway, clock: SystemClock(), owner: "rival")
        var stolen = 0
        for _ in 0..<12 {
            stolen += rival.runOnce()
            Thread.sleep(forTimeInterval: 0.2)
        }
        slow.stop()
        #expect(stolen == 0)
        #expect(gateway.sends.values.allSatisfy { $0 == 1 })
    }

    @Test func receiptsUpdateDeliveryAndNeverGoBackwards() throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        _ = try queue(store, count: 1, at: clock.now())
        _ = worker(store, CountingGateway(), clock: clock).runOnce()
        let receipts = DeliveryReceipts(outbox: store, clock: clock)
        #expect(try receipts.record(gateway: "counting", providerMessageID: "p-msg_0", status: .delivered, error: nil))
        #expect(try receipts.record(gateway: "counting", providerMessageID: "p-msg_0", status: .sent, error: nil))
        #expect(store.messages.first?.status == .delivered)
        #expect(try receipts.record(gateway: "counting", providerMessageID: "unknown", status: .delivered, error: nil) == false)
    }
}

/// A gateway whose first send runs `during` (e.g. a resend superseding another message).
final class SupersedingGateway: MessageGateway, @unchecked Sendable {
    let name = "superseding"
    private let lock = NSLock()
    private var ids: [String] = []
    private var during: (() throws -> Void)?

    init(during: @escaping () throws -> Void) { self.during = during }

    func send(_ sms: OutboundMessage) -> GatewayResult {
        lock.lock()
        let hook = during
        during = nil
        ids.append(sms.messageID)
        lock.unlock()
        try? hook?()
        return .sent(via: name, providerMessageID: "p-" + sms.messageID, status: .sent)
    }

    var sent: [String] { lock.lock(); defer { lock.unlock() }; return ids }
}
