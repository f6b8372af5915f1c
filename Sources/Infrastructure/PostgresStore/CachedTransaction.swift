import Foundation
import Postgres
import VerifyCore

/// Rows a transaction needs from the server, by kind and key.
struct Wants {
    var verifications: Set<String> = []
    var limitKeys: Set<String> = []
    /// Fraud key → the oldest bucket (Unix ms) a read needs.
    var fraudKeys: [String: Int64] = [:]
    var idempotencyKeys: Set<String> = []
    var factorSubjects: Set<String> = []
    var factorIDs: Set<String> = []
    var latestMessages: Set<String> = []
    /// `fraudStats(since:)` calls, by `since` in Unix ms.
    var fraudStats: Set<Int64> = []
    var ping = false

    init() {}

    /// What a write's `ReadSet` names; fraud keys with the default look-back.
    init(_ reads: ReadSet, fraudFrom: Int64) {
        verifications = Set(reads.verifications)
        limitKeys = Set(reads.limitKeys)
        for key in reads.fraudKeys { fraudKeys[key] = fraudFrom }
        idempotencyKeys = Set(reads.idempotencyKeys)
        factorSubjects = Set(reads.factorSubjects)
    }

    var isEmpty: Bool {
        verifications.isEmpty && limitKeys.isEmpty && fraudKeys.isEmpty && idempotencyKeys.isEmpty
            && factorSubjects.isEmpty && factorIDs.isEmpty && latestMessages.isEmpty && fraudStats.isEmpty && !ping
    }
}

/// One statement of a fetch round trip and what to do with its rows.
struct Fetch {
    let sql: String
    let params: [PostgresValue]
    let absorb: (([PostgresRow]) throws -> Void)?
}

/// A `StoreTransaction` (and `StoreReader`) that serves reads from rows fetched in batches and
/// buffers writes, so a whole write costs a few round trips:
///
/// - `fetched` holds what the server returned during this transaction. In a write it is locked
///   where SQLite's semantics need serialisation (verifications and rate-limit logs
///   `FOR UPDATE`, idempotency records `FOR UPDATE`, factors by a per-subject advisory lock), so
///   it stays true until commit.
/// - Each run of the body starts from `fetched` with an empty `changes`; writes go to `changes`
///   (both the SQL to send and the effect, so later reads in the same run see them).
/// - A read of something not fetched yet is a *miss*: it is recorded and answered with "absent"
///   (no row, empty log), and the run goes on so that every other miss is discovered too. After
///   the run, if there were misses, the store fetches them all in one round trip and runs the
///   body again from scratch (bodies are pure; see `VerificationStore.write`). Only a run without
///   misses counts: its result is returned and its writes are committed.
final class CachedTransaction: StoreTransaction {
    enum Mode { case write, read }

    struct FraudBuckets {
        /// Buckets at or after this instant (Unix ms) are all here.
        var from: Int64
        var buckets: [Int64: (sent: Int, approved: Int)]
    }

    struct FraudStatRow {
        var sent: Int
        var approved: Int
        var action: FraudAction?
        var hasCounts: Bool
    }

    /// Rows the server returned; a key present with `nil` means "no such row".
    struct Fetched {
        var verifications: [String: Verification?] = [:]
        var limitLogs: [String: [Int64]] = [:]
        var fraudCounts: [String: FraudBuckets] = [:]
        var fraudOverrides: [String: FraudAction?] = [:]
        var idempotency: [String: IdempotencyRecord?] = [:]
        var factorsBySubject: [String: [Factor]] = [:]
        var factorsByID: [String: Factor?] = [:]
        var latestMessages: [String: OutboxMessage?] = [:]
        var fraudStats: [Int64: [String: FraudStatRow]] = [:]
        var pinged = false
    }

    enum OutboxChange {
        case enqueue(OutboxMessage)
        case supersede(reason: String, at: Date)
    }

    enum FactorChange {
        case insert(Factor)
        case delete(id: String)
        case touch(id: String, at: Date)
    }

    /// One run's writes: their effects and their SQL, in order.
    struct Changes {
        var verifications: [String: (value: Verification, inserted: Bool)] = [:]
        var limitLogs: [String: [Int64]] = [:]
        /// Limit logs to write, in one statement at commit (see `bufferedWrites`).
        var limitExpiries: [String: Date] = [:]
        var fraudDeltas: [String: [Int64: (sent: Int, approved: Int)]] = [:]
        var fraudOverrides: [String: FraudAction?] = [:]
        var idempotency: [String: IdempotencyRecord] = [:]
        var outbox: [String: [OutboxChange]] = [:]
        var factors: [FactorChange] = []
        /// Twilio-compatible services saved (or, `nil`, deleted) by this run.
        var compatServices: [String: CompatService?] = [:]
        /// Twilio-compatible links inserted by this run, in order.
        var compatLinks: [CompatVerificationLink] = []
        var statements: [(sql: String, params: [PostgresValue])] = []
        var misses = Wants()
    }

    let mode: Mode
    /// The oldest fraud bucket fetched by default (Unix ms): enough for the guard's window.
    let fraudFrom: Int64
    var fetched = Fetched()
    var changes = Changes()
    /// The connection this transaction runs on, for the reads that go straight to the server
    /// instead of through the cache (the Twilio-compatible records: see `PostgresStore+TwilioCompat`).
    let connection: PostgresConnection?
    /// Counts a round trip of a direct read.
    let countTrip: () -> Void
    /// Whether `BEGIN` has been sent (writes): the first fetch or direct read sends it.
    var begun = false
    /// The server's error for a direct read: it ended the attempt (a write's transaction is then
    /// aborted), whatever the body did with it; the store rethrows it after the run, so that a
    /// retriable failure is retried.
    var directFailure: (any Error)?

    init(mode: Mode, fraudFrom: Int64, connection: PostgresConnection? = nil, countTrip: @escaping () -> Void = {}) {
        self.mode = mode
        self.fraudFrom = fraudFrom
        self.connection = connection
        self.countTrip = countTrip
    }

    /// Runs `statements` on the connection in one round trip, within the write's transaction
    /// (sending `BEGIN` first if it has not been sent yet); the rows of each statement.
    func direct(_ statements: [(sql: String, params: [PostgresValue])]) throws -> [[PostgresRow]] {
        if let directFailure { throw directFailure }
        guard let connection else { throw PostgresStoreError.usage("this transaction has no connection for direct reads") }
        var statements = statements
        let beginning = mode == .write && !begun
        if beginning { statements.insert(("BEGIN", []), at: 0) }
        do {
            countTrip()
            let results = try connection.pipeline(statements)
            if beginning { begun = true }
            return Array(results.suffix(statements.count - (beginning ? 1 : 0)))
        } catch {
            directFailure = error
            throw error
        }
    }

    /// Forgets the previous run's writes and misses.
    func startRun() {
        changes = Changes()
    }

    private var locking: Bool { mode == .write }

    /// Throws unless this is a write transaction.
    func requireWriteMode() throws {
        guard mode == .write else {
            throw PostgresStoreError.usage("a write was attempted inside PostgresStore.read")
        }
    }

    /// Buffers a write statement, sent with the COMMIT.
    func write(_ sql: String, _ params: [PostgresValue]) throws {
        try requireWriteMode()
        changes.statements.append((sql, params))
    }

    private static func ms(_ date: Date) -> Int64 { PostgresRows.ms(date) }

    // MARK: Fetch plans

    /// The statements that fetch (and in a write, lock) `wants`, in a fixed order so that
    /// concurrent transactions take row locks in the same order: verifications, rate-limit logs,
    /// idempotency records, factor subjects, each sorted by key.
    func plan(_ wants: Wants) -> [Fetch] {
        var fetches: [Fetch] = []
        var wants = wants
        if mode == .read {
            // A reader of a verification nearly always wants its delivery too (GET): fetch both at once.
            for id in wants.verifications where fetched.latestMessages[id] == nil { wants.latestMessages.insert(id) }
        }
        if !wants.verifications.isEmpty {
            let ids = wants.verifications.sorted()
            fetches.append(Fetch(
                sql: "SELECT \(PostgresRows.verificationColumns) FROM verifications WHERE id = ANY($1::text[]) ORDER BY id"
                    + (locking ? " FOR UPDATE" : ""),
                params: [PostgresRows.textArray(ids)],
                absorb: { [self] rows in
                    var found: [String: Verification] = [:]
                    for row in rows {
                        let v = try PostgresRows.verification(row)
                        found[v.id] = v
                    }
                    for id in ids { fetched.verifications.updateValue(found[id], forKey: id) }
                }))
        }
        if !wants.limitKeys.isEmpty {
            let keys = wants.limitKeys.sorted()
            let array = PostgresRows.textArray(keys)
            if locking {
                // A row for every key first, so that the lock below always has a row to hold: two
                // transactions can then never both read the same (missing) log and both append to it.
                // Placeholders expire at 0, so purge removes those never written.
                fetches.append(Fetch(
                    sql: """
                        INSERT INTO limit_logs (key, events, expires_at)
                        SELECT k, ''::bytea, 0 FROM unnest($1::text[]) AS k ORDER BY k ON CONFLICT (key) DO NOTHING
                        """,
                    params: [array], absorb: nil))
            }
            let locked = locking
            fetches.append(Fetch(
                sql: "SELECT key, events FROM limit_logs WHERE key = ANY($1::text[]) ORDER BY key" + (locking ? " FOR UPDATE" : ""),
                params: [array],
                absorb: { [self] rows in
                    var found: [String: [Int64]] = [:]
                    for row in rows {
                        found[try PostgresRows.string(row, "key")] = EventCoding.decode(row.bytes("events") ?? [])
                    }
                    for key in keys {
                        if let events = found[key] {
                            fetched.limitLogs[key] = events
                        } else if locked {
                            // Purged between our insert and our lock: start again.
                            throw RetryTransaction()
                        } else {
                            fetched.limitLogs[key] = []
                        }
                    }
                }))
        }
        if !wants.idempotencyKeys.isEmpty {
            let keys = wants.idempotencyKeys.sorted()
            fetches.append(Fetch(
                sql: """
                    SELECT key, fingerprint, verification_id, snapshot, created_at FROM idempotency_keys
                    WHERE key = ANY($1::text[]) ORDER BY key
                    """ + (locking ? " FOR UPDATE" : ""),
                params: [PostgresRows.textArray(keys)],
                absorb: { [self] rows in
                    var found: [String: IdempotencyRecord] = [:]
                    for row in rows {
                        let record = try PostgresRows.idempotencyRecord(row)
                        found[record.key] = record
                    }
                    for key in keys { fetched.idempotency.updateValue(found[key], forKey: key) }
                }))
        }
        if !wants.factorSubjects.isEmpty {
            let subjects = wants.factorSubjects.sorted()
            let array = PostgresRows.textArray(subjects)
            if locking {
                // No row to lock for "this user's factors": a transaction-scoped advisory lock per
                // subject serialises enrolments, so the duplicate and max-factor checks are exact.
                fetches.append(Fetch(
                    sql: """
                        SELECT pg_advisory_xact_lock(hashtextextended('phone-verify factors|' || s, 0))
                        FROM (SELECT s FROM unnest($1::text[]) AS s ORDER BY s) AS subjects
                        """,
                    params: [array], absorb: nil))
            }
            fetches.append(Fetch(
                sql: "SELECT \(PostgresRows.factorColumns) FROM factors WHERE subject = ANY($1::text[]) ORDER BY subject, created_at, id",
                params: [array],
                absorb: { [self] rows in
                    var found: [String: [Factor]] = [:]
                    for row in rows {
                        let factor = try PostgresRows.factor(row)
                        found[factor.subject, default: []].append(factor)
                    }
                    for subject in subjects { fetched.factorsBySubject[subject] = found[subject] ?? [] }
                }))
        }
        if !wants.factorIDs.isEmpty {
            let ids = wants.factorIDs.sorted()
            fetches.append(Fetch(
                // Locked in a write, as SQLite's single writer serialises: of concurrent deletions
                // of one factor, one finds it and the others find it gone.
                sql: "SELECT \(PostgresRows.factorColumns) FROM factors WHERE id = ANY($1::text[]) ORDER BY id" + (locking ? " FOR UPDATE" : ""),
                params: [PostgresRows.textArray(ids)],
                absorb: { [self] rows in
                    var found: [String: Factor] = [:]
                    for row in rows {
                        let factor = try PostgresRows.factor(row)
                        found[factor.id] = factor
                    }
                    for id in ids { fetched.factorsByID.updateValue(found[id], forKey: id) }
                }))
        }
        if !wants.fraudKeys.isEmpty {
            let keys = wants.fraudKeys.keys.sorted()
            let from = min(wants.fraudKeys.values.min() ?? fraudFrom, fraudFrom)
            let array = PostgresRows.textArray(keys)
            // Counters (kind 0) and overrides (kind 1) in one statement.
            fetches.append(Fetch(
                sql: """
                    SELECT 0 AS kind, key, bucket, sent, approved, NULL AS action FROM fraud_counts
                    WHERE key = ANY($1::text[]) AND bucket >= $2
                    UNION ALL
                    SELECT 1, key, NULL, NULL, NULL, action FROM fraud_overrides WHERE key = ANY($1::text[])
                    """,
                params: [array, .int(from)],
                absorb: { [self] rows in
                    var found: [String: [Int64: (sent: Int, approved: Int)]] = [:]
                    var actions: [String: FraudAction] = [:]
                    for row in rows {
                        let key = try PostgresRows.string(row, "key")
                        if try PostgresRows.int(row, "kind") == 1 {
                            actions[key] = row.text("action").flatMap(FraudAction.init)
                        } else {
                            found[key, default: [:]][try PostgresRows.int(row, "bucket")] =
                                (Int(try PostgresRows.int(row, "sent")), Int(try PostgresRows.int(row, "approved")))
                        }
                    }
                    for key in keys {
                        fetched.fraudCounts[key] = FraudBuckets(from: from, buckets: found[key] ?? [:])
                        fetched.fraudOverrides.updateValue(actions[key], forKey: key)
                    }
                }))
        }
        if !wants.latestMessages.isEmpty {
            let ids = wants.latestMessages.sorted()
            fetches.append(Fetch(
                sql: """
                    SELECT DISTINCT ON (verification_id) \(PostgresRows.outboxColumns) FROM outbox
                    WHERE verification_id = ANY($1::text[]) ORDER BY verification_id, created_at DESC, seq DESC
                    """,
                params: [PostgresRows.textArray(ids)],
                absorb: { [self] rows in
                    var found: [String: OutboxMessage] = [:]
                    for row in rows {
                        let message = try PostgresRows.message(row)
                        found[message.verificationID] = message
                    }
                    for id in ids { fetched.latestMessages.updateValue(found[id], forKey: id) }
                }))
        }
        for since in wants.fraudStats.sorted() {
            fetches.append(Fetch(
                sql: """
                    SELECT k.key AS key, COALESCE(SUM(c.sent), 0)::bigint AS sent, COALESCE(SUM(c.approved), 0)::bigint AS approved,
                        o.action AS action, COUNT(c.key) > 0 AS has_counts
                    FROM (SELECT key FROM fraud_counts WHERE bucket >= $1 UNION SELECT key FROM fraud_overrides) k
                    LEFT JOIN fraud_counts c ON c.key = k.key AND c.bucket >= $1
                    LEFT JOIN fraud_overrides o ON o.key = k.key
                    GROUP BY k.key, o.action
                    """,
                params: [.int(since)],
                absorb: { [self] rows in
                    var stats: [String: FraudStatRow] = [:]
                    for row in rows {
                        stats[try PostgresRows.string(row, "key")] = FraudStatRow(
                            sent: Int(row.int("sent") ?? 0), approved: Int(row.int("approved") ?? 0),
                            action: row.text("action").flatMap(FraudAction.init), hasCounts: row.bool("has_counts") ?? false)
                    }
                    fetched.fraudStats[since] = stats
                }))
        }
        if wants.ping {
            fetches.append(Fetch(sql: "SELECT 1", params: [], absorb: { [self] _ in fetched.pinged = true }))
        }
        return fetches
    }

    // MARK: StoreReader

    func verification(id: String) throws -> Verification? {
        if let change = changes.verifications[id] {
            if change.inserted { return change.value }
            if let known = fetched.verifications[id] { return known == nil ? nil : change.value }
            changes.misses.verifications.insert(id)
            return change.value
        }
        if let known = fetched.verifications[id] { return known }
        changes.misses.verifications.insert(id)
        return nil
    }

    func latestMessage(verificationID: String) throws -> OutboxMessage? {
        var latest: OutboxMessage?
        if let known = fetched.latestMessages[verificationID] {
            latest = known
        } else {
            changes.misses.latestMessages.insert(verificationID)
        }
        for change in changes.outbox[verificationID] ?? [] {
            switch change {
            case .enqueue(let message):
                // Newest created first; among equals the later insert (SQLite: rowid, here: seq).
                if latest.map({ Self.ms(message.createdAt) >= Self.ms($0.createdAt) }) ?? true { latest = message }
            case .supersede(let reason, let at):
                if var message = latest, message.status == .queued {
                    message.status = .failed
                    message.lastError = reason
                    message.sealedPayload = []
                    message.updatedAt = at
                    latest = message
                }
            }
        }
        return latest
    }

    func idempotencyRecord(key: String, notBefore: Date) throws -> IdempotencyRecord? {
        let record: IdempotencyRecord?
        if let saved = changes.idempotency[key] {
            record = saved
        } else if let known = fetched.idempotency[key] {
            record = known
        } else {
            changes.misses.idempotencyKeys.insert(key)
            record = nil
        }
        guard let record, Self.ms(record.createdAt) >= Self.ms(notBefore) else { return nil }
        return record
    }

    func ping() throws {
        // A write transaction reaches the server anyway; a read asks it.
        guard mode == .read, !fetched.pinged else { return }
        changes.misses.ping = true
    }

    func limitEvents(key: String) throws -> [Int64] {
        if let events = changes.limitLogs[key] { return events }
        if let events = fetched.limitLogs[key] { return events }
        changes.misses.limitKeys.insert(key)
        return []
    }

    func fraudCounts(key: String, since: Date) throws -> (sent: Int, approved: Int) {
        let from = Self.ms(since)
        var sent = 0
        var approved = 0
        if let known = fetched.fraudCounts[key], known.from <= from {
            for (bucket, counts) in known.buckets where bucket >= from {
                sent += counts.sent
                approved += counts.approved
            }
        } else {
            changes.misses.fraudKeys[key] = min(changes.misses.fraudKeys[key] ?? from, from)
        }
        for (bucket, delta) in changes.fraudDeltas[key] ?? [:] where bucket >= from {
            sent += delta.sent
            approved += delta.approved
        }
        return (sent, approved)
    }

    func fraudOverride(key: String) throws -> FraudAction? {
        if let action = changes.fraudOverrides[key] { return action }
        if let action = fetched.fraudOverrides[key] { return action }
        changes.misses.fraudKeys[key] = min(changes.misses.fraudKeys[key] ?? fraudFrom, fraudFrom)
        return nil
    }

    func fraudStats(since: Date) throws -> [FraudStat] {
        let from = Self.ms(since)
        var stats: [String: FraudStatRow]
        if let known = fetched.fraudStats[from] {
            stats = known
        } else {
            changes.misses.fraudStats.insert(from)
            stats = [:]
        }
        for (key, deltas) in changes.fraudDeltas {
            for (bucket, delta) in deltas where bucket >= from {
                var row = stats[key] ?? FraudStatRow(sent: 0, approved: 0, action: nil, hasCounts: false)
                row.sent += delta.sent
                row.approved += delta.approved
                row.hasCounts = true
                stats[key] = row
            }
        }
        for (key, action) in changes.fraudOverrides {
            var row = stats[key] ?? FraudStatRow(sent: 0, approved: 0, action: nil, hasCounts: false)
            row.action = action
            stats[key] = (action == nil && !row.hasCounts) ? nil : row
        }
        return stats.keys.sorted().map { key in
            let row = stats[key]!
            return FraudStat(key: key, sent: row.sent, approved: row.approved, action: row.action)
        }
    }

    func factors(subject: String) throws -> [Factor] {
        var list: [Factor]
        if let known = fetched.factorsBySubject[subject] {
            list = known
        } else {
            changes.misses.factorSubjects.insert(subject)
            list = []
        }
        for change in changes.factors {
            switch change {
            case .insert(let factor) where factor.subject == subject: list.append(factor)
            case .insert: break
            case .delete(let id): list.removeAll { $0.id == id }
            case .touch(let id, let at):
                if let index = list.firstIndex(where: { $0.id == id }) { list[index].lastUsedAt = at }
            }
        }
        return list.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func factor(id: String) throws -> Factor? {
        // nil: not known yet; .some(nil): known absent.
        var state: Factor??
        if let known = fetched.factorsByID[id] {
            state = .some(known)
        } else if let found = fetched.factorsBySubject.values.lazy.flatMap({ $0 }).first(where: { $0.id == id }) {
            state = .some(found)
        }
        for change in changes.factors {
            switch change {
            case .insert(let factor) where factor.id == id: state = .some(factor)
            case .delete(let deleted) where deleted == id: state = .some(nil)
            case .touch(let touched, let at) where touched == id:
                if case .some(.some(var factor)) = state {
                    factor.lastUsedAt = at
                    state = .some(factor)
                }
            default: break
            }
        }
        guard let state else {
            changes.misses.factorIDs.insert(id)
            return nil
        }
        return state
    }

    // MARK: StoreTransaction

    func insert(_ verification: Verification) throws {
        let exists: Bool
        if let change = changes.verifications[verification.id] {
            exists = change.inserted || (fetched.verifications[verification.id].map { $0 != nil } ?? false)
        } else {
            exists = fetched.verifications[verification.id].map { $0 != nil } ?? false
        }
        if exists { throw PostgresStoreError.duplicateKey(table: "verifications", key: verification.id) }
        try write(PostgresRows.insertVerification, PostgresRows.values(verification))
        changes.verifications[verification.id] = (PostgresRows.stored(verification), true)
    }

    func update(_ verification: Verification) throws {
        try write(PostgresRows.updateVerification, PostgresRows.updateValues(verification))
        let inserted = changes.verifications[verification.id]?.inserted ?? false
        changes.verifications[verification.id] = (PostgresRows.stored(verification), inserted)
    }

    func enqueue(_ message: OutboxMessage, lease: OutboxLease?) throws {
        try write(
            PostgresRows.insertMessage,
            PostgresRows.values(message) + [PostgresRows.text(lease?.owner), PostgresRows.millis(lease?.until)])
        changes.outbox[message.verificationID, default: []].append(.enqueue(PostgresRows.stored(message)))
    }

    func supersedeQueuedMessages(verificationID: String, reason: String, now: Date) throws {
        try write(
            "UPDATE outbox SET status = 'failed', last_error = $1, payload = NULL, updated_at = $2 WHERE verification_id = $3 AND status = 'queued'",
            [.text(reason), PostgresRows.millis(now), .text(verificationID)])
        changes.outbox[verificationID, default: []].append(.supersede(reason: reason, at: PostgresRows.stored(now)))
    }

    func saveIdempotencyRecord(_ record: IdempotencyRecord) throws {
        let params: [PostgresValue] = [
            .text(record.key), .text(record.fingerprint), .text(record.verificationID),
            .bytes(Array(try JSONEncoder().encode(record.snapshot))), PostgresRows.millis(record.createdAt),
        ]
        let knownAbsent = changes.idempotency[record.key] == nil && fetched.idempotency[record.key].map { $0 == nil } ?? false
        if knownAbsent {
            // A plain insert: if a concurrent request with the same key committed first, this fails
            // with a unique violation and the store reruns the body, which then replays that record.
            try write(
                "INSERT INTO idempotency_keys (key, fingerprint, verification_id, snapshot, created_at) VALUES ($1,$2,$3,$4,$5)",
                params)
        } else {
            try write(
                """
                INSERT INTO idempotency_keys (key, fingerprint, verification_id, snapshot, created_at) VALUES ($1,$2,$3,$4,$5)
                ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, verification_id = excluded.verification_id,
                    snapshot = excluded.snapshot, created_at = excluded.created_at
                """,
                params)
        }
        changes.idempotency[record.key] = IdempotencyRecord(
            key: record.key, fingerprint: record.fingerprint, verificationID: record.verificationID, snapshot: record.snapshot,
            createdAt: PostgresRows.stored(record.createdAt))
    }

    func setLimitEvents(key: String, events: [Int64], expiresAt: Date) throws {
        try requireWriteMode()
        changes.limitLogs[key] = events
        changes.limitExpiries[key] = expiresAt
    }

    func addFraudCounts(key: String, bucket: Date, sent: Int, approved: Int) throws {
        try requireWriteMode()
        let at = Self.ms(bucket)
        let current = changes.fraudDeltas[key]?[at] ?? (0, 0)
        changes.fraudDeltas[key, default: [:]][at] = (current.sent + sent, current.approved + approved)
    }

    /// The run's limit logs and fraud counters as one multi-row upsert each (sorted, so that
    /// concurrent transactions lock rows in the same order), sent after the other writes: a
    /// request's dozen counter updates cost the server two statements, not a dozen.
    func bufferedWrites() -> [(sql: String, params: [PostgresValue])] {
        var statements: [(sql: String, params: [PostgresValue])] = []
        func rows(_ count: Int, width: Int) -> String {
            (0..<count).map { row in
                "(" + (1...width).map { "$\(row * width + $0)" }.joined(separator: ",") + ")"
            }.joined(separator: ",")
        }
        let logs = changes.limitExpiries.keys.sorted()
        if !logs.isEmpty {
            statements.append((
                "INSERT INTO limit_logs (key, events, expires_at) VALUES \(rows(logs.count, width: 3)) "
                    + "ON CONFLICT (key) DO UPDATE SET events = excluded.events, expires_at = excluded.expires_at",
                logs.flatMap { key -> [PostgresValue] in
                    [.text(key), .bytes(EventCoding.encode(changes.limitLogs[key] ?? [])), PostgresRows.millis(changes.limitExpiries[key]!)]
                }))
        }
        let counts = changes.fraudDeltas.flatMap { key, buckets in buckets.map { (key: key, bucket: $0.key, delta: $0.value) } }
            .sorted { ($0.key, $0.bucket) < ($1.key, $1.bucket) }
        if !counts.isEmpty {
            statements.append((
                "INSERT INTO fraud_counts (key, bucket, sent, approved) VALUES \(rows(counts.count, width: 4)) "
                    + "ON CONFLICT (key, bucket) DO UPDATE SET sent = fraud_counts.sent + excluded.sent, "
                    + "approved = fraud_counts.approved + excluded.approved",
                counts.flatMap { c -> [PostgresValue] in
                    [.text(c.key), .int(c.bucket), PostgresRows.int(c.delta.sent), PostgresRows.int(c.delta.approved)]
                }))
        }
        return statements
    }

    func setFraudOverride(key: String, action: FraudAction?, now: Date) throws {
        if let action {
            try write(
                """
                INSERT INTO fraud_overrides (key, action, created_at) VALUES ($1, $2, $3)
                ON CONFLICT (key) DO UPDATE SET action = excluded.action, created_at = excluded.created_at
                """,
                [.text(key), .text(action.rawValue), PostgresRows.millis(now)])
        } else {
            try write("DELETE FROM fraud_overrides WHERE key = $1", [.text(key)])
        }
        changes.fraudOverrides.updateValue(action, forKey: key)
    }

    func insertFactor(_ factor: Factor) throws {
        if try factors(subject: factor.subject).contains(where: { $0.phoneNumber == factor.phoneNumber }) {
            throw VerifyError(.factorExists, "this phone number is already enrolled")
        }
        try write(
            "INSERT INTO factors (\(PostgresRows.factorColumns)) VALUES ($1,$2,$3,$4,$5,$6)",
            [
                .text(factor.id), .text(factor.subject), .text(factor.phoneNumber), PostgresRows.int(factor.countryCode),
                PostgresRows.millis(factor.createdAt), PostgresRows.millis(factor.lastUsedAt),
            ])
        changes.factors.append(.insert(PostgresRows.stored(factor)))
    }

    func deleteFactor(id: String) throws {
        try write("DELETE FROM factors WHERE id = $1", [.text(id)])
        changes.factors.append(.delete(id: id))
    }

    func touchFactor(id: String, at: Date) throws {
        try write("UPDATE factors SET last_used_at = $1 WHERE id = $2", [PostgresRows.millis(at), .text(id)])
        changes.factors.append(.touch(id: id, at: PostgresRows.stored(at)))
    }
}

/// Thrown inside a transaction attempt when it must start over (a locked row vanished).
struct RetryTransaction: Error {}
