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
    private let outbox: any OutboxStore
    private let gateway: any SMSGateway
    private let sealer: any MessageSealer
    private let clock: any Clock
    private let random: any RandomSource
    private let logger: Logger
    private let devLog: (any DevMessageLog)?
    private let configuration: DeliveryConfiguration
    public let owner: String

    private let condition = NSCondition()
    /// The lease keeper sleeps on its own condition: a wake-up meant for a sending thread must
    /// never be absorbed by it (a lost wake-up delays a message until the next poll).
    private let keeperCondition = NSCondition()
    private var wakeups = 0
    /// Messages queued under this worker's lease, delivered from memory (see `handOff`).
    private var handed: [(message: OutboxMessage, payload: MessagePayload)] = []
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
            let (live, holding) = (running, busy > 0 || !handed.isEmpty)
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

    private func waitForWork() {
        condition.lock()
        if wakeups == 0 && running {
            _ = condition.wait(until: Date().addingTimeInterval(configuration.pollInterval))
        }
        wakeups = 0
        condition.unlock()
    }

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

    /// Processes one batch (handed over in memory first, else claimed from the store); returns
    /// how many messages it handled.
    @discardableResult
    public func runOnce() -> Int {
        var claimed = takeHanded()
        if claimed.isEmpty {
            let now = clock.now()
            do {
                claimed = try outbox.claimDue(
                    limit: configuration.batchSize, now: now,
                    leaseUntil: now.addingTimeInterval(TimeInterval(configuration.leaseSeconds)), owner: owner
                ).map { (message: $0, payload: nil) }
            } catch {
                logger.error("outbox claim failed", [("error", String(describing: error))])
                return 0
            }
            guard !claimed.isEmpty else { return 0 }
            condition.lock()
            busy += 1
            condition.unlock()
        }
        defer {
            condition.lock()
            busy -= 1
            condition.unlock()
        }
        // Outcomes are written as they come when sending is slow (a crash then re-sends at
        // most ~50 ms of messages), and together when it is fast (console, local gateways).
        var pending: [OutboxOutcome] = []
        var lastFlush = DispatchTime.now().uptimeNanoseconds
        for (message, payload) in claimed {
            // Stopping: finish the message in hand, leave the rest (their leases are released).
            if isStopping { break }
            pending.append(deliver(message, payload: payload))
            let now = DispatchTime.now().uptimeNanoseconds
            if now - lastFlush >= 50_000_000 {
                flush(&pending)
                lastFlush = now
            }
        }
        flush(&pending)
        return claimed.count
    }

    private func flush(_ outcomes: inout [OutboxOutcome]) {
        guard !outcomes.isEmpty else { return }
        do {
            try outbox.complete(outcomes, owner: owner)
        } catch {
            logger.error("outbox completion failed; messages will be retried after their lease", [("error", String(describing: error))])
        }
        outcomes.removeAll()
    }

    private func deliver(_ message: OutboxMessage, payload known: MessagePayload?) -> OutboxOutcome {
        let now = clock.now()
        let attempts = message.attempts + 1
        func outcome(_ status: DeliveryStatus, error: String?, next: Date? = nil, provider: String? = nil, via: String? = nil) -> OutboxOutcome {
            OutboxOutcome(
                messageID: message.id, status: status, gateway: via ?? gateway.name, providerMessageID: provider,
                lastError: error, nextAttemptAt: next, attempts: attempts, at: now)
        }
        guard now < message.expiresAt else { return outcome(.failed, error: "code expired before delivery") }
        let payload: MessagePayload
        do {
            payload = try known ?? MessagePayload(json: try sealer.open(message.sealedPayload))
        } catch {
            logger.error("outbox payload cannot be opened (wrong PHONE_VERIFY_CODE_SECRET?)", [("message_id", message.id)])
            return outcome(.failed, error: "payload cannot be decrypted")
        }
        let sms = SMS(
            messageID: message.id, to: message.to, display: payload.display, body: payload.body, code: payload.code,
            verificationID: message.verificationID, purpose: message.purpose, locale: payload.locale,
            expiresAt: message.expiresAt)
        let fields = [("message_id", message.id), ("verification_id", message.verificationID),
                      ("to", PhoneMask.mask(message.to)), ("gateway", gateway.name)]
        switch gateway.send(sms) {
        case .sent(let via, let providerID, let status):
            devLog?.record(DevMessage(
                to: message.to, body: payload.body, code: payload.code, verificationID: message.verificationID,
                purpose: message.purpose, gateway: via, sentAt: now))
            logger.info("sms sent", fields + [("via", via)])
            return outcome(status, error: nil, provider: providerID, via: via)
        case .permanent(let reason):
            logger.warning("sms failed permanently", fields + [("reason", reason)])
            return outcome(.failed, error: reason)
        case .retryable(let reason, let retryAfter):
            guard attempts < configuration.maxAttempts else {
                logger.warning("sms failed after retries", fields + [("reason", reason)])
                return outcome(.failed, error: reason)
            }
            let next = now.addingTimeInterval(max(backoff(attempt: attempts), Double(retryAfter ?? 0)))
            logger.info("sms will be retried", fields + [("reason", reason), ("attempt", String(attempts))])
            return outcome(.queued, error: reason, next: next)
        }
    }

    /// Exponential backoff with jitter: uniform in [d/2, d] where d = base × 2^(attempt−1), capped.
    func backoff(attempt: Int) -> Double {
        let d = min(configuration.retryCap, configuration.retryBase * pow(2, Double(max(0, attempt - 1))))
        let fraction = Double(random.uniform(below: 1_000_000)) / 1_000_000
        return d / 2 + fraction * d / 2
    }

    private func purge() {
        do {
            let removed = try outbox.purge(endedBefore: clock.now().addingTimeInterval(-configuration.retention))
            if removed > 0 { logger.info("purged ended verifications", [("rows", String(removed))]) }
        } catch {
            logger.warning("purge failed", [("error", String(describing: error))])
        }
    }
}
