import Foundation
import Telemetry
import VerifyCore

/// How the event senders work (docs/EVENTS.md, "Delivery").
public struct EventDeliveryConfiguration: Sendable {
    public var threads = 2
    /// Events claimed per round trip.
    public var batch = 16
    /// With waits capped at 15 minutes, 120 attempts outlast the default maximum age (24 h), so
    /// the age decides when a down receiver's events are given up, as documented.
    public var maxAttempts = 120
    /// Seconds after its creation an event stops being retried.
    public var maxAge = 86_400.0
    /// Seconds between looks at the store when there was nothing to send.
    public var pollInterval = 0.5
    /// Backoff: 1 s doubling up to this, each uniform in [d/2, d].
    public var maxBackoff = 900.0
    /// Seconds one POST may take (the sender's timeout): a claim's lease is sized from it.
    public var sendTimeout = 5.0

    public init() {}

    /// Long enough for two sends, so a thread never sends under a lapsed lease: before each
    /// POST it puts back what it could not finish in time.
    public var leaseSeconds: Double { max(10, 2 * sendTimeout + 5) }
}

/// Sends the events outbox to the receiver off the request path: threads claim due events with
/// a lease (safe across replicas), POST each once, and record delivered / retry later / failed.
/// Events left leased by a crashed process are claimable once their lease lapses.
public final class EventDeliveryWorker: @unchecked Sendable {
    // @unchecked: `running`, `stopping` and `threadsAlive` are only touched with `condition` held; the rest is immutable.
    let store: any EventOutboxStore
    let sender: EventSender
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
    let configuration: EventDeliveryConfiguration
    public let owner: String
    private let outcomes: Counter
    private let condition = NSCondition()
    private var running = false
    /// Set by `stop`: a thread finishes the POST in hand and puts the rest of its batch back.
    private var stopping = false
    private var threadsAlive = 0

    public init(
        store: any EventOutboxStore, sender: EventSender, clock: any Clock, random: any RandomSource, logger: Logger,
        metrics: MetricsRegistry, configuration: EventDeliveryConfiguration = EventDeliveryConfiguration(), owner: String? = nil
    ) {
        self.store = store
        self.sender = sender
        self.clock = clock
        self.random = random
        self.logger = logger
        self.configuration = configuration
        self.owner = owner ?? random.identifier(prefix: "events_")
        outcomes = metrics.counter(
            "phoneverify_events_total", "Event POSTs by type and outcome (delivered, retried, failed)", labels: ["type", "outcome"])
        let pending = metrics.gauge("phoneverify_events_pending", "Events waiting to be delivered")
        metrics.onCollect { if let n = try? store.pendingEvents() { pending.set(Double(n)) } }
    }

    public func start() {
        condition.lock()
        running = true
        threadsAlive = configuration.threads
        condition.unlock()
        for i in 0..<configuration.threads {
            let thread = Thread { [self] in loop() }
            thread.name = "events-\(i)"
            thread.start()
        }
    }

    /// Stops after the POSTs in hand, then releases the leases still held (another replica, or
    /// the next start, sends those events at once).
    public func stop() {
        condition.lock()
        guard running else { condition.unlock(); return }
        running = false
        stopping = true
        condition.broadcast()
        while threadsAlive > 0 { condition.wait() }
        condition.unlock()
        do { try store.releaseEventLeases(owner: owner) } catch {
            logger.warning("could not release event leases", [("error", String(describing: error))])
        }
    }

    var isRunning: Bool {
        condition.lock()
        defer { condition.unlock() }
        return running
    }

    var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    private func loop() {
        while isRunning {
            let claimed = runOnce()
            if claimed < configuration.batch {
                condition.lock()
                if running { _ = condition.wait(until: Date().addingTimeInterval(configuration.pollInterval)) }
                condition.unlock()
            }
        }
        condition.lock()
        threadsAlive -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Claims one batch, sends it, records the outcomes; returns how many events it claimed.
    @discardableResult
    public func runOnce() -> Int {
        let now = clock.now()
        let leaseUntil = now.addingTimeInterval(configuration.leaseSeconds)
        let claimed: [PendingEvent]
        do {
            claimed = try store.claimEvents(limit: configuration.batch, now: now, leaseUntil: leaseUntil, owner: owner)
        } catch {
            logger.warning("could not claim events", [("error", String(describing: error))])
            return 0
        }
        var results: [EventOutcome] = []
        for pending in claimed {
            let start = clock.now()
            // Not enough lease left for one more POST (or stopping): put it back, due now.
            guard !isStopping, start.addingTimeInterval(sender.timeout + 1) < leaseUntil else {
                results.append(EventOutcome(
                    eventID: pending.event.id, status: .queued, attempts: pending.attempts, nextAttemptAt: start, lastError: nil, at: start))
                continue
            }
            results.append(outcome(of: pending, sender.send(pending.event), at: clock.now()))
        }
        do { try store.completeEvents(results, owner: owner) } catch {
            // Their leases lapse and they are sent again: at least once.
            logger.warning("could not record event outcomes", [("error", String(describing: error)), ("events", String(results.count))])
        }
        return claimed.count
    }

    /// Delivered, or retried with backoff and jitter, or failed for good past the attempts or age.
    func outcome(of pending: PendingEvent, _ result: EventSender.Result, at now: Date) -> EventOutcome {
        let attempts = pending.attempts + 1
        let event = pending.event
        switch result {
        case .delivered:
            outcomes.increment([event.type.rawValue, "delivered"])
            return EventOutcome(eventID: event.id, status: .delivered, attempts: attempts, nextAttemptAt: nil, lastError: nil, at: now)
        case .failed(let detail, let retryAfter):
            let fields = [("event_id", event.id), ("type", event.type.rawValue), ("attempts", String(attempts)), ("error", detail)]
            let tooOld = now.timeIntervalSince(event.createdAt) >= configuration.maxAge
            if attempts >= configuration.maxAttempts || tooOld {
                outcomes.increment([event.type.rawValue, "failed"])
                logger.error("event not delivered; giving up", fields)
                return EventOutcome(eventID: event.id, status: .failed, attempts: attempts, nextAttemptAt: nil, lastError: detail, at: now)
            }
            outcomes.increment([event.type.rawValue, "retried"])
            logger.warning("event not delivered; will retry", fields)
            let delay = max(backoff(attempts: attempts), Double(min(retryAfter ?? 0, Int(configuration.maxBackoff))))
            return EventOutcome(
                eventID: event.id, status: .queued, attempts: attempts, nextAttemptAt: now.addingTimeInterval(delay),
                lastError: detail, at: now)
        }
    }

    /// 1 s, 2 s, 4 s … capped at `maxBackoff`, each uniform in [d/2, d].
    public func backoff(attempts: Int) -> Double {
        let d = min(configuration.maxBackoff, pow(2, Double(min(max(0, attempts - 1), 30))))
        let millis = UInt64(d * 500)
        return (Double(millis) + Double(random.uniform(below: millis + 1))) / 1000
    }
}
