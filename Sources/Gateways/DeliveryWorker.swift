import Foundation
import Telemetry
import VerifyCore

/// Tuning of the delivery worker.
public struct DeliveryConfiguration: Sendable {
    /// Messages one thread claims at a time.
    public var batchSize = 16
    /// Sending threads (each claims its own batch; vendor calls block).
    public var threads = 4
    /// Seconds a claim holds unless renewed; a live worker renews every third of it, so a
    /// crashed worker's messages are claimable again within this time.
    public var leaseSeconds = 15
    /// Attempts before a retryable failure becomes final.
    public var maxAttempts = 8
    /// First retry delay and cap, seconds (exponential with jitter in between).
    public var retryBase = 1.0
    public var retryCap = 60.0
    /// Seconds between polls when nothing wakes the worker.
    public var pollInterval = 1.0
    /// How long ended verifications and sent messages are kept, seconds.
    public var retention = 86_400.0
    public var purgeInterval = 60.0

    public init() {}
}

/// Sends outbox messages off the request path: claims due messages with a lease, opens their
/// sealed payloads, hands them to the gateway, and records each outcome. Pending messages
/// left by a crash are due at once, so they go out right after start-up.
public final class DeliveryWorker: DeliveryNotifier, @unchecked Sendable {
    let outbox: any OutboxStore
    let gateway: any SMSGateway
    let sealer: any MessageSealer
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
    let devLog: (any DevMessageLog)?
    let configuration: DeliveryConfiguration
    public let owner: String

    private let condition = NSCondition()
    /// The lease keeper sleeps on its own condition: a wake-up meant for a sending thread must
    /// never be absorbed by it (a lost wake-up delays a message until the next poll).
    private let keeperCondition = NSCondition()
    private var wakeups = 0
    /// Messages queued under this worker's lease, delivered from memory (see `handOff`).
    private var handed: [(message: OutboxMessage, payload: MessagePayload)] = []
    /// A claim from the store is due (see `runOnce`).
    private var claimWanted = true
    /// Outcomes not yet written, and when the oldest was added (uptime ns).
    private var completions: [OutboxOutcome] = []
    private var oldestCompletion: UInt64 = 0
    private var running = false
    private var busy = 0
    private var threadsAlive = 0

    public init(
        outbox: any OutboxStore, gateway: any SMSGateway, sealer: any MessageSealer, clock: any Clock,
        random: any RandomSource, logger: Logger, devLog: (any DevMessageLog)?,
        configuration: DeliveryConfiguration = DeliveryConfiguration(), owner: String? = nil
    ) {
        self.outbox = outbox
        self.gateway = gateway
        self.sealer = sealer
        self.clock = clock
        self.random = random
        self.logger = logger
        self.devLog = devLog
        self.configuration = configuration
        self.owner = owner ?? random.identifier(prefix: "worker_")
    }

    /// Wakes the worker: called after a commit that queued messages.
    public func messagesQueued() {
        condition.lock()
        wakeups += 1
        claimWanted = true
        condition.signal()
        condition.unlock()
    }

    /// Most messages held in memory; past this, new messages are queued unclaimed.
    private var handOffCapacity: Int { max(1, configuration.batchSize * configuration.threads * 4) }

    public func handOffLease(now: Date) -> OutboxLease? {
        condition.lock()
        defer { condition.unlock() }
        guard running && !stopRequested && handed.count < handOffCapacity else { return nil }
        return OutboxLease(owner: owner, until: now.addingTimeInterval(TimeInterval(configuration.leaseSeconds)))
    }

    public func handOff(_ message: OutboxMessage, payload: MessagePayload) {
        condition.lock()
        handed.append((message, payload))
        wakeups += 1
        condition.signal()
        condition.unlock()
    }

    /// Starts the sending threads and the lease keeper.
    public func start() {
        condition.lock()
        running = true
        threadsAlive = configuration.threads + 1
        condition.unlock()
        for i in 0..<configuration.threads {
            let thread = Thread { [self] in loop(purges: i == 0) }
            thread.name = "delivery-\(i)"
            thread.start()
        }
        let keeper = Thread { [self] in keepLeases() }
        keeper.name = "delivery-leases"
        keeper.start()
    }

    /// Stops after the batches in hand are done, then releases any lease still held.
    public func stop() {
        condition.lock()
        guard running else { condition.unlock(); return }
        running = false
        stopRequested = true
        condition.broadcast()
        condition.unlock()
        // Never hold `condition` while taking `keeperCondition` (the keeper takes them the other way).
        keeperCondition.lock()
        keeperCondition.broadcast()
        keeperCondition.unlock()
        condition.lock()
        while threadsAlive > 0 { condition.wait() }
        condition.unlock()
        flushCompletions()  // sent messages must be recorded before their leases go
        do { try outbox.releaseLeases(owner: owner) } catch {
            logger.warning("could not release outbox leases", [("error", String(describing: error))])
        }
    }

    private func threadEnded() {
        condition.lock()
        threadsAlive -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func loop(purges: Bool) {
        var lastPurge = Date.distantPast
        while isRunning {
            let processed = runOnce()
            if purges && Date().timeIntervalSince(lastPurge) >= configuration.purgeInterval {
                lastPurge = Date()
                purge()
            }
            if processed == 0 { waitForWork() }
        }
        threadEnded()
    }

    /// Renews this worker's leases every third of the lease while it runs.
    private func keepLeases() {
        let period = Double(configuration.leaseSeconds) / 3
        while isRunning {
            keeperCondition.lock()
            if isRunning { _ = keeperCondition.wait(until: Date().addingTimeInterval(period)) }
            keeperCondition.unlock()
            condition.lock()
            let (live, holding) = (running, busy > 0 || !handed.isEmpty || !completions.isEmpty)
            condition.unlock()
            guard live else { break }
            if holding {
                do {
                    try outbox.renewLeases(owner: owner, until: clock.now().addingTimeInterval(TimeInterval(configuration.leaseSeconds)))
                } catch {
                    logger.warning("could not renew outbox leases", [("error", String(describing: error))])
                }
            }
        }
        threadEnded()
    }

    private var stopRequested = false

    private var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopRequested
    }

    private var isRunning: Bool {
        condition.lock()
        defer { condition.unlock() }
        return running
    }

    /// Sleeps until work is signalled, the buffered outcomes are due (then writes them), or the
    /// poll interval passed (then a claim is due: retries come due in the store).
    private func waitForWork() {
        condition.lock()
        if wakeups == 0 && running && handed.isEmpty {
            let age = completions.isEmpty ? 0 : DispatchTime.now().uptimeNanoseconds - oldestCompletion
            let wait = completions.isEmpty
                ? configuration.pollInterval : max(0, Double(Self.completionDelay - min(age, Self.completionDelay)) / 1e9)
            if !condition.wait(until: Date().addingTimeInterval(wait)) && completions.isEmpty { claimWanted = true }
        }
        wakeups = 0
        let due = !completions.isEmpty && DispatchTime.now().uptimeNanoseconds - oldestCompletion >= Self.completionDelay
        condition.unlock()
        if due { flushCompletions() }
    }

    /// How long an outcome may wait in the buffer for others to share its transaction (ns).
    static let completionDelay: UInt64 = 10_000_000

    /// Takes up to a batch of handed-over messages, counted as busy while they are sent.
    private func takeHanded() -> [(message: OutboxMessage, payload: MessagePayload?)] {
        condition.lock()
        defer { condition.unlock() }
        let count = min(handed.count, configuration.batchSize)
        guard count > 0 else { return [] }
        let batch = handed[..<count].map { (message: $0.message, payload: Optional($0.payload)) }
        handed.removeFirst(count)
        busy += 1
        return batch
    }

    /// Processes one batch: messages handed over in memory first, else (when a claim is due:
    /// at start-up, after `messagesQueued`, every poll interval, or after a full batch) due
    /// rows claimed from the store. Returns how many messages it handled.
    @discardableResult
    public func runOnce() -> Int {
        var batch = takeHanded()
        if batch.isEmpty {
            guard takeClaimTurn() else { return 0 }
            let now = clock.now()
            do {
                batch = try outbox.claimDue(
                    limit: configuration.batchSize, now: now,
                    leaseUntil: now.addingTimeInterval(TimeInterval(configuration.leaseSeconds)), owner: owner
                ).map { (message: $0, payload: nil) }
            } catch {
                logger.error("outbox claim failed", [("error", String(describing: error))])
                return 0
            }
            condition.lock()
            if batch.count == configuration.batchSize { claimWanted = true }  // more may be due
            if !batch.isEmpty { busy += 1 }
            condition.unlock()
            guard !batch.isEmpty else { return 0 }
        }
        for (message, payload) in batch {
            // Stopping: finish the message in hand, leave the rest (their leases are released).
            if isStopping { break }
            record(deliver(message, payload: payload))
        }
        condition.lock()
        busy -= 1
        let threadless = !running
        condition.unlock()
        if threadless { flushCompletions() }  // tests driving `runOnce` see outcomes at once
        return batch.count
    }

    /// Whether this call should claim from the store (and, if so, takes the turn).
    private func takeClaimTurn() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        // Without threads (tests driving `runOnce`), every call looks in the store.
        guard running else { return true }
        let wanted = claimWanted
        claimWanted = false
        return wanted
    }

    /// Buffers an outcome; writes the buffer when it holds a batch or its oldest outcome is
    /// 10 ms old. Under load, completions of many messages share one store transaction; a crash
    /// re-sends at most those ~10 ms of messages (their leases lapse).
    private func record(_ outcome: OutboxOutcome) {
        condition.lock()
        let now = DispatchTime.now().uptimeNanoseconds  // read under the lock: never before `oldestCompletion`
        if completions.isEmpty { oldestCompletion = now }
        completions.append(outcome)
        let due = completions.count >= configuration.batchSize || now - oldestCompletion >= Self.completionDelay
        let ready = due ? completions : []
        if due { completions.removeAll(keepingCapacity: true) }
        condition.unlock()
        write(ready)
    }

    /// Writes every buffered outcome.
    func flushCompletions() {
        condition.lock()
        let ready = completions
        completions.removeAll(keepingCapacity: true)
        condition.unlock()
        write(ready)
    }

    private func write(_ outcomes: [OutboxOutcome]) {
        guard !outcomes.isEmpty else { return }
        do {
            try outbox.complete(outcomes, owner: owner)
        } catch {
            logger.error("outbox completion failed; messages will be retried after their lease", [("error", String(describing: error))])
        }
    }
}
