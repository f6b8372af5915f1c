import Foundation
import Postgres
import VerifyCore

/// Rows a transaction needs from the server, by kind and key.
struct Wants {
    var verifications: Set<String> = []
    var limitKeys: Set<String> = []
    /// Fraud key → the oldest bucket (Unix ms) a read needs.
    var fraudKeys: [String: Int64] = [:]
    /// Fraud keys read for a long look back (`fraudHistory`): fetched, never learned as the
    /// look-back of every transaction.
    var fraudHistoryKeys: Set<String> = []
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
        var twilioCompatServices: [String: TwilioCompatServiceRecord?] = [:]
        /// Twilio-compatible links inserted by this run, in order.
        var twilioCompatLinks: [TwilioCompatVerificationLink] = []
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

    var locking: Bool { mode == .write }

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

    static func ms(_ date: Date) -> Int64 { PostgresRows.ms(date) }
}

/// Thrown inside a transaction attempt when it must start over (a locked row vanished).
struct RetryTransaction: Error {}
