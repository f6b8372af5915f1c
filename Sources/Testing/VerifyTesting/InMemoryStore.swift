import Foundation
import VerifyCore

/// An in-memory store for domain unit tests: writes are serialised and atomic (a body that
/// throws leaves nothing behind), like the real stores.
/// `@unchecked Sendable`: `state`, `commits` and `reads` change only under `lock`; tests read `commits`
/// after the writes they count have returned.
public final class InMemoryStore: VerificationStore, OutboxStore, EventOutboxStore, CredentialRedemptionStore, @unchecked Sendable {
    // @unchecked: `state`, `commits` and `reads` are only touched with `lock` held; a transaction works on its own copy.
    struct State {
        var verifications: [String: Verification] = [:]
        var messages: [OutboxMessage] = []
        var leases: [String: (owner: String, until: Date)] = [:]
        /// Receipts whose message is not recorded as sent yet, by "gateway|provider id".
        var earlyReceipts: [String: (status: DeliveryStatus, error: String?, at: Date)] = [:]
        /// Redeemed credentials' `jti` → expiry and the attempt that redeemed it.
        var redeemed: [String: (expiresAt: Date, attempt: String)] = [:]
        var idempotency: [String: IdempotencyRecord] = [:]
        var limits: [String: [Int64]] = [:]
        var fraud: [String: [Date: (sent: Int, approved: Int)]] = [:]
        var overrides: [String: FraudAction] = [:]
        var factors: [Factor] = []
        var twilioCompatServices: [String: TwilioCompatServiceRecord] = [:]
        var twilioCompatLinks: [TwilioCompatVerificationLink] = []
        var challengeReplays: [String: Date] = [:]
        var attestedKeys: [String: AttestedKey] = [:]
        /// The events outbox, in insertion order.
        var events: [StoredEvent] = []
    }

    private let lock = NSLock()
    private var state = State()
    /// Number of committed write transactions.
    public private(set) var commits = 0
    /// Read transactions (`read`), for tests of what a request reads.
    public private(set) var reads = 0

    public init() {}

    final class Transaction: StoreTransaction {
        var state: State
        init(_ state: State) { self.state = state }

        func verification(id: String) throws -> Verification? { state.verifications[id] }
        func latestMessage(verificationID: String) throws -> OutboxMessage? {
            state.messages.last { $0.verificationID == verificationID && ($0.fallbackOf == nil || $0.attempts > 0) }
        }
        func idempotencyRecord(key: String, notBefore: Date) throws -> IdempotencyRecord? {
            state.idempotency[key].flatMap { $0.createdAt >= notBefore ? $0 : nil }
        }
        func ping() throws {}
        func insert(_ verification: Verification) throws {
            guard state.verifications[verification.id] == nil else { throw Duplicate() }
            state.verifications[verification.id] = verification
        }
        func update(_ verification: Verification) throws { state.verifications[verification.id] = verification }
        func enqueue(_ message: OutboxMessage, lease: OutboxLease?) throws {
            state.messages.append(message)
            if let lease { state.leases[message.id] = (lease.owner, lease.until) }
        }
        func supersedeQueuedMessages(verificationID: String, reason: String, now: Date) throws {
            for i in state.messages.indices where state.messages[i].verificationID == verificationID && state.messages[i].status == .queued {
                state.messages[i].status = .failed
                state.messages[i].lastError = reason
                state.messages[i].sealedPayload = []
                state.messages[i].updatedAt = now
            }
        }
        func saveIdempotencyRecord(_ record: IdempotencyRecord) throws { state.idempotency[record.key] = record }
        func limitEvents(key: String) throws -> [Int64] { state.limits[key] ?? [] }
        func setLimitEvents(key: String, events: [Int64], expiresAt: Date) throws { state.limits[key] = events }
        func fraudCounts(key: String, since: Date) throws -> (sent: Int, approved: Int) {
            (state.fraud[key] ?? [:]).filter { $0.key >= since }.values.reduce((0, 0)) { ($0.0 + $1.sent, $0.1 + $1.approved) }
        }
        func addFraudCounts(key: String, bucket: Date, sent: Int, approved: Int) throws {
            let current: (sent: Int, approved: Int) = state.fraud[key]?[bucket] ?? (0, 0)
            state.fraud[key, default: [:]][bucket] = (sent: current.sent + sent, approved: current.approved + approved)
        }
        func factors(subject: String) throws -> [Factor] { state.factors.filter { $0.subject == subject } }
        func factor(id: String) throws -> Factor? { state.factors.first { $0.id == id } }
        func insertFactor(_ factor: Factor) throws {
            guard !state.factors.contains(where: { $0.subject == factor.subject && $0.phoneNumber == factor.phoneNumber }) else {
                throw VerifyError(.factorExists, "this phone number is already enrolled")
            }
            state.factors.append(factor)
        }
        func deleteFactor(id: String) throws { state.factors.removeAll { $0.id == id } }
        func touchFactor(id: String, at: Date) throws {
            if let i = state.factors.firstIndex(where: { $0.id == id }) { state.factors[i].lastUsedAt = at }
        }
        func insertEvent(_ event: WebhookEvent) throws { state.insertEvent(event) }
        func fraudOverride(key: String) throws -> FraudAction? { state.overrides[key] }
        func setFraudOverride(key: String, action: FraudAction?, now: Date) throws { state.overrides[key] = action }
        func fraudStats(since: Date) throws -> [FraudStat] {
            Set(state.fraud.keys).union(state.overrides.keys).sorted().map { key in
                let counts: (sent: Int, approved: Int) = (try? fraudCounts(key: key, since: since)) ?? (sent: 0, approved: 0)
                return FraudStat(key: key, sent: counts.sent, approved: counts.approved, action: state.overrides[key])
            }
        }
    }

    struct Duplicate: Error {}

    public func write<T: Sendable>(reading: ReadSet, _ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let tx = Transaction(state)
        let result = try body(tx)
        state = tx.state
        commits += 1
        return result
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) throws -> T {
        lock.lock()
        let snapshot = state
        reads += 1
        lock.unlock()
        return try body(Transaction(snapshot))
    }

    /// Every outbox message, oldest first.
    public var messages: [OutboxMessage] {
        lock.lock()
        defer { lock.unlock() }
        return state.messages
    }

    public func claimDue(limit: Int, now: Date, leaseUntil: Date, owner: String) throws -> [OutboxMessage] {
        lock.lock()
        defer { lock.unlock() }
        var claimed: [OutboxMessage] = []
        for m in state.messages where claimed.count < limit && m.status == .queued && m.nextAttemptAt <= now {
            if let lease = state.leases[m.id], lease.until >= now { continue }
            state.leases[m.id] = (owner, leaseUntil)
            claimed.append(m)
        }
        return claimed
    }

    public func complete(_ outcomes: [OutboxOutcome], owner: String, events: [String: WebhookEvent]) throws {
        lock.lock()
        defer { lock.unlock() }
        for o in outcomes {
            guard state.leases[o.messageID]?.owner == owner, let i = state.messages.firstIndex(where: { $0.id == o.messageID }),
                  state.messages[i].status == .queued || (o.status == .sent && state.messages[i].status == .failed)
            else { continue }
            state.leases[o.messageID] = nil
            state.messages[i].status = o.status
            state.messages[i].gateway = o.gateway
            state.messages[i].providerMessageID = o.providerMessageID ?? state.messages[i].providerMessageID
            state.messages[i].lastError = o.lastError
            state.messages[i].attempts = o.attempts
            state.messages[i].updatedAt = o.at
            if let next = o.nextAttemptAt { state.messages[i].nextAttemptAt = next }
            if o.status != .queued { state.messages[i].sealedPayload = [] }
            if let event = events[o.messageID] { state.insertEvent(event) }
            if let gateway = o.gateway, let provider = o.providerMessageID,
                let early = state.earlyReceipts.removeValue(forKey: gateway + "|" + provider)
            {
                Self.apply(early.status, error: early.error, at: max(early.at, o.at), to: &state.messages[i])
            }
            state.followFallbacks(of: state.messages[i].id, now: o.at)
        }
    }

    /// A receipt never moves a message out of a final state, and "sent" never replaces "failed".
    static func overrides(_ status: DeliveryStatus, _ current: DeliveryStatus) -> Bool {
        !(current == .delivered || current == .undelivered || (status == .sent && current == .failed))
    }

    static func apply(_ status: DeliveryStatus, error: String?, at: Date, to message: inout OutboxMessage) {
        guard overrides(status, message.status) else { return }
        message.status = status
        message.lastError = error ?? message.lastError
        message.updatedAt = at
    }

    public func releaseLeases(owner: String) throws {
        lock.lock()
        defer { lock.unlock() }
        state.leases = state.leases.filter { $0.value.owner != owner }
    }

    public func renewLeases(owner: String, ids: [String], until: Date) throws -> Int {
        lock.lock()
        defer { lock.unlock() }
        var n = 0
        let wanted = Set(ids)
        for (id, lease) in state.leases where lease.owner == owner && wanted.contains(id) {
            state.leases[id] = (owner, until)
            n += 1
        }
        return n
    }

    public func recordReceipt(
        gateway: String, providerMessageID: String, status: DeliveryStatus, error: String?, at: Date, event: ReceiptEvent?
    ) throws -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let i = state.messages.firstIndex(where: { $0.gateway == gateway && $0.providerMessageID == providerMessageID }) else {
            let key = gateway + "|" + providerMessageID
            if let held = state.earlyReceipts[key], !Self.overrides(status, held.status) { return false }
            state.earlyReceipts[key] = (status, error ?? state.earlyReceipts[key]?.error, at)
            return false
        }
        if let event, Self.overrides(status, state.messages[i].status) {
            state.insertEvent(event.event(
                messageID: state.messages[i].id, verificationID: state.messages[i].verificationID,
                channel: state.messages[i].channel.rawValue))
        }
        Self.apply(status, error: error, at: at, to: &state.messages[i])
        state.followFallbacks(of: state.messages[i].id, now: at)
        return true
    }

    public func claimedMessageState(messageID: String, owner: String) throws -> ClaimedMessageState {
        lock.lock()
        defer { lock.unlock() }
        let message = state.messages.first { $0.id == messageID }
        return .of(messageStatus: message?.status.rawValue, leaseOwner: state.leases[messageID]?.owner,
                   verificationStatus: message.flatMap { state.verifications[$0.verificationID] }?.storedStatus.rawValue, owner: owner)
    }

    public func queueDepth() throws -> (count: Int, oldest: Date?) {
        lock.lock()
        defer { lock.unlock() }
        let queued = state.messages.filter { $0.status == .queued }
        return (queued.count, queued.map(\.createdAt).min())
    }

    public func purge(endedBefore cutoff: Date, idempotencyBefore: Date) throws -> Int {
        lock.lock()
        defer { lock.unlock() }
        let before = state.verifications.count + state.messages.count + state.idempotency.count
        state.verifications = state.verifications.filter { $0.value.expiresAt >= cutoff }
        state.idempotency = state.idempotency.filter { $0.value.createdAt >= idempotencyBefore }
        let kept = state.verifications
        state.twilioCompatLinks.removeAll { $0.createdAt < cutoff && kept[$0.verificationID] == nil }
        state.messages.removeAll { $0.expiresAt < cutoff && $0.status != .queued }
        state.earlyReceipts = state.earlyReceipts.filter { $0.value.at >= cutoff }
        state.redeemed = state.redeemed.filter { $0.value.expiresAt >= cutoff }
        state.events.removeAll { $0.status != .queued && $0.updatedAt < cutoff }
        return before - state.verifications.count - state.messages.count - state.idempotency.count
    }

    /// Runs `body` on the committed state under the lock (challenge state needs no transaction).
    func withState<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    public func redeem(jti: String, expiresAt: Date, attempt: String) throws -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if let held = state.redeemed[jti] { return held.attempt == attempt }
        state.redeemed[jti] = (expiresAt, attempt)
        return true
    }
}

extension InMemoryStore: LimitLogAdminStore {
    public func limitLogs(prefix: String) throws -> [LimitLogRow] {
        try read { reader in (reader as! Transaction).state.limits.filter { $0.key.hasPrefix(prefix) } }
            .sorted { $0.key < $1.key }.map { LimitLogRow(key: $0.key, events: $0.value) }
    }

    public func deleteLimitLogs(prefix: String) throws -> Int {
        try write { tx in
            let state = (tx as! Transaction)
            let keys = state.state.limits.keys.filter { $0.hasPrefix(prefix) }
            for key in keys { state.state.limits[key] = nil }
            return keys.count
        }
    }

    public func deleteLimitLogs(scopes: [String], value: String) throws -> Int {
        try write { tx in
            let state = (tx as! Transaction)
            let keys = state.state.limits.keys.filter { LimitsAdmin.matches($0, scopes: scopes, value: value) }
            for key in keys { state.state.limits[key] = nil }
            return keys.count
        }
    }
}

