import VendorTesting
import CurlClient
import Encoding
import Foundation
import Gateways
import HTTPMessages
import LibCrypto
import Telemetry
import Testing
import VerifyCore
import VerifyTesting

/// The event senders against a receiver on 127.0.0.1 that checks signatures: the Standard
/// Webhooks headers, retries under one webhook-id, backoff, giving up.
@Suite struct EventDeliveryTests {
    static let secret = "whsec_" + Base64.encode(Array("events-key-0123456789abcdef-0123".utf8))

    func sender(_ url: String, clock: any Clock = SystemClock(), secret: String = secret, timeout: Double = 2) -> EventSender {
        EventSender(url: url, secret: secret, client: HTTPClient(), clock: clock, timeout: timeout)
    }

    /// The receiver's check (docs/EVENTS.md), written independently of the sender's code.
    func verifies(_ request: HTTPRequest) -> Bool {
        guard let id = request.headers["webhook-id"], let stamp = request.headers["webhook-timestamp"],
              let signature = request.headers["webhook-signature"], let key = Base64.decode(String(Self.secret.dropFirst(6)))
        else { return false }
        let mac = HMAC.sha256(key: key, data: Array("\(id).\(stamp).".utf8) + request.body)
        return signature == "v1," + Base64.encode(mac)
    }

    func worker(_ store: InMemoryStore, _ sender: EventSender, clock: ManualClock, maxAttempts: Int = 3) -> EventDeliveryWorker {
        var configuration = EventDeliveryConfiguration()
        configuration.maxAttempts = maxAttempts
        configuration.sendTimeout = 2
        return EventDeliveryWorker(
            store: store, sender: sender, clock: clock, random: SeededRandom(seed: 1), logger: Logger(handler: NullLogHandler()),
            metrics: MetricsRegistry(), configuration: configuration)
    }

    func queue(_ store: InMemoryStore, _ event: WebhookEvent) throws {
        try store.write { tx in try tx.insertEvent(event) }
    }

    /// The test vector of the Standard Webhooks specification (its reference libraries' tests).
    @Test func theSignatureMatchesTheSpecificationsVector() {
        let event = WebhookEvent(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", type: .verificationStarted, createdAt: Date(), body: #"{"test": 2432232314}"#)
        let headers = sender("http://127.0.0.1:9", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").headers(for: event, timestamp: 1_614_265_330)
        #expect(headers.first { $0.name == "webhook-signature" }?.value == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(headers.first { $0.name == "webhook-id" }?.value == "msg_p5jXN8AQM9LWM0D4loKWxJek")
        #expect(headers.first { $0.name == "webhook-timestamp" }?.value == "1614265330")
    }

    @Test func aDeliveredEventIsSignedAndSentOnce() throws {
        let receiver = try FakeVendor(.reply(204, "", []))
        defer { receiver.stop() }
        let store = InMemoryStore(), clock = ManualClock()
        let event = EventRecorder(random: SeededRandom(seed: 2)).make(.verificationStarted, data: [JSONMember("n", 1)], at: clock.now())
        try queue(store, event)
        let w = worker(store, sender(receiver.base + "/events", clock: clock), clock: clock)
        #expect(w.runOnce() == 1)
        #expect(w.runOnce() == 0)
        let request = try #require(receiver.requests.first)
        #expect(receiver.requests.count == 1 && verifies(request))
        #expect(request.method == "POST" && request.path == "/events" && request.body == Array(event.body.utf8))
        #expect(request.headers["Content-Type"] == "application/json" && request.headers["webhook-id"] == event.id)
        #expect(request.headers["webhook-timestamp"] == String(Int64(clock.now().timeIntervalSince1970)))
        #expect(store.eventStatus(id: event.id)?.status == .delivered)
        #expect(try store.pendingEvents() == 0)
    }

    @Test func refusalsAreRetriedWithBackoffUnderTheSameIdThenGivenUp() throws {
        let receiver = try FakeVendor(.reply(500, "{}", []))
        defer { receiver.stop() }
        receiver.script([.reply(302, "", [("Location", "http://127.0.0.1:9/elsewhere")]), .reply(400, "{}", [])])
        let store = InMemoryStore(), clock = ManualClock()
        let event = EventRecorder(random: SeededRandom(seed: 2)).make(.verificationApproved, data: [], at: clock.now())
        try queue(store, event)
        let w = worker(store, sender(receiver.base, clock: clock), clock: clock)
        #expect(w.runOnce() == 1)  // 302: not followed, retried
        #expect(store.eventStatus(id: event.id)! == (.queued, 1))
        #expect(w.runOnce() == 0)  // not due yet: backoff of 0.5–1 s
        clock.advance(1)
        #expect(w.runOnce() == 1)  // 400
        clock.advance(2)
        #expect(w.runOnce() == 1)  // 500: the third attempt of three gives up
        #expect(store.eventStatus(id: event.id)! == (.failed, 3))
        clock.advance(3600)
        #expect(w.runOnce() == 0)
        #expect(receiver.requests.count == 3)
        #expect(Set(receiver.requests.compactMap { $0.headers["webhook-id"] }) == [event.id])
        #expect(receiver.requests.allSatisfy(verifies))
    }

    @Test func anEventTooOldIsGivenUpAndBackoffIsBounded() throws {
        let receiver = try FakeVendor(.reply(503, "{}", []))
        defer { receiver.stop() }
        let store = InMemoryStore(), clock = ManualClock()
        let event = EventRecorder(random: SeededRandom(seed: 2)).make(.verificationStarted, data: [], at: clock.now())
        try queue(store, event)
        var configuration = EventDeliveryConfiguration()
        configuration.maxAge = 60
        let w = EventDeliveryWorker(
            store: store, sender: sender(receiver.base, clock: clock), clock: clock, random: SeededRandom(seed: 1),
            logger: Logger(handler: NullLogHandler()), metrics: MetricsRegistry(), configuration: configuration)
        for attempts in [1, 2, 5, 10, 40] {
            let d = w.backoff(attempts: attempts)
            let cap = min(900, pow(2, Double(attempts - 1)))
            #expect(d >= cap / 2 && d <= cap)
        }
        #expect(w.runOnce() == 1)
        clock.advance(61)
        #expect(w.runOnce() == 1)
        #expect(store.eventStatus(id: event.id)! == (.failed, 2))
    }

    @Test func aHangingReceiverTimesOutAndIsRetried() throws {
        let receiver = try FakeVendor(.sleep(3))
        defer { receiver.stop() }
        let store = InMemoryStore(), clock = ManualClock()
        let event = EventRecorder(random: SeededRandom(seed: 2)).make(.verificationStarted, data: [], at: clock.now())
        try queue(store, event)
        let w = worker(store, sender(receiver.base, clock: clock, timeout: 1), clock: clock)
        let began = Date()
        #expect(w.runOnce() == 1)
        #expect(Date().timeIntervalSince(began) < 2.5)
        #expect(store.eventStatus(id: event.id)! == (.queued, 1))
    }
}
