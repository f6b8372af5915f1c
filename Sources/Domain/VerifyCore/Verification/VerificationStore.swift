import Foundation

/// Durable storage for verifications and their outbox, behind which SQLite and PostgreSQL sit.
///
/// Every write runs as one short transaction: the body sees a consistent snapshot, reads in it
/// lock what they read (PostgreSQL: `FOR UPDATE`), and nothing is visible to others until the
/// body returns and the transaction commits. A body that throws changes nothing.
public protocol VerificationStore: Sendable {
    /// Runs `body` in one write transaction. `reading` declares, as a hint, what the body will
    /// read, so a networked store can fetch (and lock) it all in one round trip; reads outside
    /// it still work. A body may run more than once (retried after a serialization failure or
    /// SQLITE_BUSY), so it must have no effects outside the transaction.
    func write<T: Sendable>(reading: ReadSet, _ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws -> T
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) throws -> T
}

extension VerificationStore {
    /// A write with no declared reads.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws -> T {
        try write(reading: ReadSet(), body)
    }
}

/// The rows a write transaction is going to read, by kind and key.
public struct ReadSet: Sendable, Equatable {
    public var verifications: [String] = []
    public var limitKeys: [String] = []
    public var fraudKeys: [String] = []
    /// With `fraudKeys`: the fraud counters from this instant on will be read (a store may
    /// load their sums up front).
    public var fraudSince: Date?
    public var idempotencyKeys: [String] = []
    public var factorSubjects: [String] = []

    public init(
        verifications: [String] = [], limitKeys: [String] = [], fraudKeys: [String] = [], fraudSince: Date? = nil,
        idempotencyKeys: [String] = [], factorSubjects: [String] = []
    ) {
        self.fraudSince = fraudSince
        self.verifications = verifications
        self.limitKeys = limitKeys
        self.fraudKeys = fraudKeys
        self.idempotencyKeys = idempotencyKeys
        self.factorSubjects = factorSubjects
    }
}

/// Reads available in and out of write transactions.
public protocol StoreReader {
    func verification(id: String) throws -> Verification?
    /// The newest outbox message of a verification, for its delivery status.
    func latestMessage(verificationID: String) throws -> OutboxMessage?
    /// A stored first response for an idempotency key, if one is younger than `notBefore`.
    func idempotencyRecord(key: String, notBefore: Date) throws -> IdempotencyRecord?
    /// Cheap liveness probe of the store.
    func ping() throws
    /// Event instants (Unix ms, oldest first) of a rate-limit subject.
    func limitEvents(key: String) throws -> [Int64]
    /// Sends and approvals counted for a fraud key since `since`.
    func fraudCounts(key: String, since: Date) throws -> (sent: Int, approved: Int)
    /// As `fraudCounts`, for a long look back (a baseline) that only a few transactions need: a
    /// store that prefetches counters must not start fetching that far for every transaction.
    func fraudHistory(key: String, since: Date) throws -> (sent: Int, approved: Int)
    func fraudOverride(key: String) throws -> FraudAction?
    /// Every fraud key with activity since `since` or an override, for operators.
    func fraudStats(since: Date) throws -> [FraudStat]
    /// A user's MFA factors, oldest first.
    func factors(subject: String) throws -> [Factor]
    func factor(id: String) throws -> Factor?
}

extension StoreReader {
    public func fraudHistory(key: String, since: Date) throws -> (sent: Int, approved: Int) {
        try fraudCounts(key: key, since: since)
    }
}

/// Writes, available only inside `VerificationStore.write`.
public protocol StoreTransaction: StoreReader {
    func insert(_ verification: Verification) throws
    func update(_ verification: Verification) throws
    /// Queues a message. With a `lease`, the message is queued already claimed by that worker,
    /// which delivers it from memory (see ``DeliveryNotifier/handOffLease(now:)``).
    func enqueue(_ message: OutboxMessage, lease: OutboxLease?) throws
    /// Marks every still-queued message of the verification as failed with `reason` and erases
    /// their payloads (their code no longer works).
    func supersedeQueuedMessages(verificationID: String, reason: String, now: Date) throws
    func saveIdempotencyRecord(_ record: IdempotencyRecord) throws
    /// Replaces a subject's event log; the row may be purged after `expiresAt`.
    func setLimitEvents(key: String, events: [Int64], expiresAt: Date) throws
    /// Adds to a fraud key's counters in the bucket starting at `bucket`.
    func addFraudCounts(key: String, bucket: Date, sent: Int, approved: Int) throws
    /// Sets (or with nil, clears) an operator's decision for a fraud key.
    func setFraudOverride(key: String, action: FraudAction?, now: Date) throws
    /// Stores a factor; throws `factor_exists` when the user already has this phone.
    func insertFactor(_ factor: Factor) throws
    func deleteFactor(id: String) throws
    func touchFactor(id: String, at: Date) throws
    /// Queues an event for the events outbox (docs/EVENTS.md); an event whose id is already
    /// queued is ignored (events written once per verification or per fraud window).
    func insertEvent(_ event: WebhookEvent) throws
}

/// The first response to a request with an `Idempotency-Key`.
public struct IdempotencyRecord: Sendable, Equatable {
    /// Scoped key: client identity + the header's value.
    public let key: String
    /// What the first request asked for; a different request with the same key is refused.
    public let fingerprint: String
    public let verificationID: String
    /// The verification as it was answered the first time.
    public let snapshot: Verification
    public let createdAt: Date

    public init(key: String, fingerprint: String, verificationID: String, snapshot: Verification, createdAt: Date) {
        self.key = key
        self.fingerprint = fingerprint
        self.verificationID = verificationID
        self.snapshot = snapshot
        self.createdAt = createdAt
    }
}

/// Outbox access for the delivery worker.
public protocol OutboxStore: Sendable {
    /// Claims up to `limit` due messages (queued, `nextAttemptAt <= now`, lease free or lapsed)
    /// for `owner` until `leaseUntil`. A claimed message is never handed to a second worker
    /// while its lease holds.
    func claimDue(limit: Int, now: Date, leaseUntil: Date, owner: String) throws -> [OutboxMessage]
    /// Records what happened to claimed messages and releases their leases. A message that
    /// is no longer queued has its payload erased. A message that stopped being queued while
    /// it was held (superseded by a resend, its verification ended) keeps that state, unless it
    /// was sent meanwhile: then it records `sent` (and its provider id, for receipts); it is never
    /// queued again.
    ///
    /// `events`, by message id: the event of each outcome, written in the same transaction when
    /// its outcome is recorded (not when the message stopped being this owner's).
    func complete(_ outcomes: [OutboxOutcome], owner: String, events: [String: WebhookEvent]) throws
    /// Releases leases this owner still holds (graceful shutdown).
    func releaseLeases(owner: String) throws
    /// Extends this owner's leases on the messages `ids` (those a live worker holds in memory:
    /// a lease on anything else lapses, so another worker can send it); returns how many.
    @discardableResult
    func renewLeases(owner: String, ids: [String], until: Date) throws -> Int
    /// Applies a provider's delivery receipt to the message it sent. Final states are not
    /// overwritten by earlier ones (a late "sent" never replaces "delivered"). When no message of
    /// that gateway has that provider id yet (the vendor called back before the send's result was
    /// recorded), the receipt is held, `complete` applies it once the send is recorded, and this
    /// returns false (false means held, true applied); receipts never matched are purged like
    /// ended messages.
    /// `event`, when given, is written in the same transaction if the receipt changes a message.
    func recordReceipt(
        gateway: String, providerMessageID: String, status: DeliveryStatus, error: String?, at: Date, event: ReceiptEvent?
    ) throws -> Bool
    /// Where a message this owner claimed stands, checked just before sending it: still to send,
    /// superseded since the claim (resend, cancel: no longer queued under this lease), or its
    /// verification ended meanwhile (approved, out of attempts, canceled).
    func claimedMessageState(messageID: String, owner: String) throws -> ClaimedMessageState
    /// Number of queued messages and the oldest one's creation time.
    func queueDepth() throws -> (count: Int, oldest: Date?)
    /// Deletes verifications and messages that ended before `cutoff`, idempotency records
    /// created before `idempotencyBefore`, and the other bookkeeping that ended before `cutoff`.
    func purge(endedBefore cutoff: Date, idempotencyBefore: Date) throws -> Int
}

/// See ``OutboxStore/claimedMessageState(messageID:owner:)``.
public enum ClaimedMessageState: Sendable, Equatable {
    case deliverable, superseded, verificationEnded

    /// From a message row's status and lease owner and its verification's stored status.
    public static func of(messageStatus: String?, leaseOwner: String?, verificationStatus: String?, owner: String) -> Self {
        guard messageStatus == DeliveryStatus.queued.rawValue, leaseOwner == owner else { return .superseded }
        // No verification row (purged): the message's own expiry decides, as before.
        return verificationStatus == nil || verificationStatus == VerificationStatus.pending.rawValue ? .deliverable : .verificationEnded
    }
}

/// The result of one delivery attempt.
public struct OutboxOutcome: Sendable, Equatable {
    public let messageID: String
    public let status: DeliveryStatus
    public let gateway: String?
    public let providerMessageID: String?
    public let lastError: String?
    /// Set when `status` is `.queued`: when to try again.
    public let nextAttemptAt: Date?
    public let attempts: Int
    public let at: Date

    public init(
        messageID: String, status: DeliveryStatus, gateway: String?, providerMessageID: String?,
        lastError: String?, nextAttemptAt: Date?, attempts: Int, at: Date
    ) {
        self.messageID = messageID
        self.status = status
        self.gateway = gateway
        self.providerMessageID = providerMessageID
        self.lastError = lastError
        self.nextAttemptAt = nextAttemptAt
        self.attempts = attempts
        self.at = at
    }
}

/// Wakes the delivery worker after a commit that queued messages.
public protocol DeliveryNotifier: Sendable {
    func messagesQueued()
    /// A lease under which a message about to be queued is claimed as it is inserted, so this
    /// worker can deliver it straight from memory after the commit (no claim transaction, no
    /// wait for a poll); `nil` when the worker cannot take more in memory. If the process dies
    /// first, the lease lapses and any worker claims the message from the store.
    func handOffLease(now: Date) -> OutboxLease?
    /// Hands over a message committed under a lease from ``handOffLease(now:)``, with its
    /// payload in the clear (it is sealed in the store).
    func handOff(_ message: OutboxMessage, payload: MessagePayload)
    /// Called after a commit that superseded a verification's queued messages (resend, cancel,
    /// approval): a message of it still held in memory is dropped instead of sent. Best effort:
    /// one already with the gateway goes out, and another replica's memory is not reached.
    func messagesSuperseded(verificationID: String)
}

extension DeliveryNotifier {
    public func handOffLease(now: Date) -> OutboxLease? { nil }
    public func handOff(_ message: OutboxMessage, payload: MessagePayload) { messagesQueued() }
    public func messagesSuperseded(verificationID: String) {}
}

/// A delivery worker's claim on an outbox message.
public struct OutboxLease: Sendable, Equatable {
    public let owner: String
    public let until: Date

    public init(owner: String, until: Date) {
        self.owner = owner
        self.until = until
    }
}

extension StoreTransaction {
    /// Queues an unclaimed message: any worker may claim it.
    public func enqueue(_ message: OutboxMessage) throws { try enqueue(message, lease: nil) }
}

extension OutboxStore {
    /// Records outcomes without events.
    public func complete(_ outcomes: [OutboxOutcome], owner: String) throws {
        try complete(outcomes, owner: owner, events: [:])
    }

    /// Applies a receipt without an event.
    @discardableResult
    public func recordReceipt(gateway: String, providerMessageID: String, status: DeliveryStatus, error: String?, at: Date) throws -> Bool {
        try recordReceipt(gateway: gateway, providerMessageID: providerMessageID, status: status, error: error, at: at, event: nil)
    }

    /// Purges everything, idempotency records included, that ended before `cutoff`.
    public func purge(endedBefore cutoff: Date) throws -> Int {
        try purge(endedBefore: cutoff, idempotencyBefore: cutoff)
    }
}
