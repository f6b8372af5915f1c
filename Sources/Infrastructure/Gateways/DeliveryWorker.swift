import Foundation
import Synchronization
import Telemetry
import VerifyCore

/// Sends outbox messages off the request path: claims due messages with a lease, opens their
/// sealed payloads, hands them to the gateway, and records each outcome. Pending messages
/// left by a crash are due at once, so they go out right after start-up.
public final class DeliveryWorker: DeliveryNotifier, @unchecked Sendable {
    // @unchecked: every `var` is only touched with `condition` (or, for the keeper's state, `keeperCondition`) held; the rest is immutable.
    let outbox: any OutboxStore
    let gateway: any MessageGateway
    let sealer: any MessageSealer
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
    let devLog: (any DevMessageLog)?
    let configuration: DeliveryConfiguration
    public let owner: String

    let condition = NSCondition()
    /// The lease keeper sleeps on its own condition: a wake-up meant for a sending thread must
    /// never be absorbed by it (a lost wake-up delays a message until the next poll).
    private let keeperCondition = NSCondition()
    private var wakeups = 0
    /// Messages queued under this worker's lease, delivered from memory (see `handOff`).
    var handed: [(message: OutboxMessage, payload: MessagePayload)] = []
    /// Verifications whose messages held in memory were superseded, until when (uptime ns): see
    /// `messagesSuperseded` (DeliveryWorker+Superseded.swift).
    var supersededHeld: [String: UInt64] = [:]
    /// The same entries in the order they were added, so expired ones leave in O(1) each.
    var supersededOrder: [(verificationID: String, until: UInt64)] = []
    var supersededHead = 0
    /// A claim from the store is due (see `runOnce`), and when the last one was made (uptime ns).
    private var claimWanted = true
    private var lastClaim: UInt64 = 0
    /// Messages taken for sending whose outcome is not buffered yet (their leases are renewed).
    var inFlight: Set<String> = []
    /// Outcomes not yet written, and when the oldest was added (uptime ns).
    var completions: [OutboxOutcome] = []
    /// The `delivery.updated` events of buffered outcomes, by message id (events on only).
    var completionEvents: [String: WebhookEvent] = [:]
    var oldestCompletion: UInt64 = 0
    var running = false
    private var threadsAlive = 0
    /// Mirrors of `running`, `stopRequested` and `handed.count`, written with `condition` held
    /// and read without it: the request path (`handOffLease`, every start) and the sending
    /// loop's per-message checks then take no lock that 64 request threads and the sending
    /// threads contend for (each contended take was a sleep and a wake-up).
    private let runningFlag = Atomic<Bool>(false)
    private let stopFlag = Atomic<Bool>(false)
    let handedCount = Atomic<Int>(0)

    public init(
        outbox: any OutboxStore, gateway: any MessageGateway, sealer: any MessageSealer, clock: any Clock,
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

    /// Most messages held in memory (one batch per thread); past this, new messages are queued
    /// unclaimed. Kept small: memory is not shared between replicas, so a message superseded by
    /// another replica while held here is still sent (its row keeps the superseded state).
    private var handOffCapacity: Int { max(1, configuration.batchSize * configuration.threads) }

    /// Without the lock: the capacity is a soft bound (a hand-off racing another may pass it by
    /// a few), and a lease given just before `stop` is handed back by `handOff`.
    public func handOffLease(now: Date) -> OutboxLease? {
        guard runningFlag.load(ordering: .acquiring) && !stopFlag.load(ordering: .acquiring)
            && handedCount.load(ordering: .relaxed) < handOffCapacity
        else { return nil }
        return OutboxLease(owner: owner, until: now.addingTimeInterval(TimeInterval(configuration.leaseSeconds)))
    }

    public func handOff(_ message: OutboxMessage, payload: MessagePayload) {
        condition.lock()
        guard running else {
            // Stopped since the lease was given: hand the row back to the store for any worker.
            condition.unlock()
            do { try outbox.releaseLeases(owner: owner) } catch {
                logger.warning("could not release outbox leases", [("error", String(describing: error))])
            }
            return
        }
        // A commit that took a third of the lease or more leaves too little of it to rely on:
        // the row is claimed from the store once the lease lapses.
        if clock.now().timeIntervalSince(message.createdAt) >= Double(configuration.leaseSeconds) / 3 {
            wakeups += 1
            claimWanted = true
            condition.signal()
            condition.unlock()
            return
        }
        if isSupersededLocked(message.verificationID) {
            // Superseded by a commit that came first (its row says so): nothing to send.
            condition.unlock()
            return
        }
        handed.append((message, payload))
        handedCount.store(handed.count, ordering: .relaxed)
        wakeups += 1
        condition.signal()
        condition.unlock()
    }

    /// Starts the sending threads and the lease keeper.
    public func start() {
        condition.lock()
        running = true
        runningFlag.store(true, ordering: .releasing)
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
        runningFlag.store(false, ordering: .releasing)
        stopFlag.store(true, ordering: .releasing)
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
            let live = running
            let held = handed.map(\.message.id) + Array(inFlight) + completions.map(\.messageID)
            condition.unlock()
            guard live else { break }
            if !held.isEmpty {
                do {
                    try outbox.renewLeases(
                        owner: owner, ids: held, until: clock.now().addingTimeInterval(TimeInterval(configuration.leaseSeconds)))
                } catch {
                    logger.warning("could not renew outbox leases", [("error", String(describing: error))])
                }
            }
        }
        threadEnded()
    }

    private var stopRequested = false

    private var isStopping: Bool { stopFlag.load(ordering: .acquiring) }

    private var isRunning: Bool { runningFlag.load(ordering: .acquiring) }

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

    /// Takes up to a batch of handed-over messages (in flight until their outcome is buffered).
    private func takeHanded() -> [(message: OutboxMessage, payload: MessagePayload?)] {
        condition.lock()
        defer { condition.unlock() }
        let count = min(handed.count, configuration.batchSize)
        guard count > 0 else { return [] }
        let batch = handed[..<count].map { (message: $0.message, payload: Optional($0.payload)) }
        handed.removeFirst(count)
        handedCount.store(handed.count, ordering: .relaxed)
        for item in batch { inFlight.insert(item.message.id) }
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
            if batch.count == configuration.batchSize {
                claimWanted = true  // more may be due: another thread can take them now
                condition.signal()
            }
            for item in batch { inFlight.insert(item.message.id) }
            condition.unlock()
            guard !batch.isEmpty else { return 0 }
        }
        for (message, payload) in batch {
            // Stopping: finish the message in hand, leave the rest (their leases are released).
            if isStopping { break }
            // Taken from memory, then superseded while earlier ones of the batch were sent.
            if payload != nil && dropIfSuperseded(message) { continue }
            // Claimed from the store (retries, resends), then superseded while it waited here
            // behind slower sends: its row says so (one read; the hand-off path needs none).
            if payload == nil && !isStillQueued(message) { continue }
            record(deliver(message, payload: payload), of: message, region: payload?.region)
        }
        if !isRunning { flushCompletions() }  // tests driving `runOnce` see outcomes at once
        return batch.count
    }

    /// Whether this call should claim from the store (and, if so, takes the turn).
    private func takeClaimTurn() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        // Without threads (tests driving `runOnce`), every call looks in the store.
        guard running else { return true }
        // Also once per poll interval whatever else happens: retries come due and leases of
        // crashed workers lapse even while hand-offs keep every thread busy.
        let now = DispatchTime.now().uptimeNanoseconds
        let pollDue = now &- lastClaim >= UInt64(configuration.pollInterval * 1e9)
        guard claimWanted || pollDue else { return false }
        claimWanted = false
        lastClaim = now
        return true
    }
}
