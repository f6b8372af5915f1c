import Foundation
@_exported import class Postgres.QueryCounter
import Postgres
import Synchronization
import VerifyCore

/// The networked store: PostgreSQL shared by any number of stateless replicas, with the same
/// schema and semantics as `SQLiteStore` (the store contract suite runs unchanged on both).
///
/// ## Transactions
///
/// Every write body runs in one `READ COMMITTED` transaction in which everything SQLite's
/// single writer would serialise is locked instead: verification rows `FOR UPDATE`, rate-limit
/// logs `FOR UPDATE` (after `INSERT … ON CONFLICT DO NOTHING`, so there is always a row to lock),
/// idempotency records `FOR UPDATE`, a user's factors by an advisory lock on the subject. Locks
/// are taken in a fixed order (verifications, limit logs, idempotency keys, subjects; each
/// sorted), and writes are plain SQL, so attempt caps, single use, rate limits and idempotent
/// replays are exact across replicas. Fraud counters are atomic increments (`… ON CONFLICT DO
/// UPDATE SET sent = sent + …`); the guard's read of them is not locked (a judgement on an hour of
/// traffic, not a quota).
///
/// A body is retried as a whole, up to 8 times with a short jittered pause, after a serialization
/// failure (40001), a deadlock (40P01), a unique violation on a key a concurrent transaction
/// inserted first (an idempotency key, a factor: the rerun sees the other row), a connection
/// lost before COMMIT was sent, or a locked limit log purged under it. Bodies may therefore run
/// more than once and must have no effects outside the transaction (the protocol requires that).
///
/// ## Round trips
///
/// The `ReadSet` hint is fetched, and locked, in the same pipelined round trip as `BEGIN`
/// (libpq pipeline mode). The body then reads from that cache and its writes are buffered. A read
/// the hint did not name is recorded as a miss and answered "absent" so the body can go on and
/// reveal every other miss; the misses are then fetched together in one round trip and the body
/// runs again (see ``CachedTransaction``). The buffered writes and `COMMIT` go in one final
/// pipelined round trip. Measured per `VerificationService` call (see `RoundTripTests`):
///
/// | call | round trips | what |
/// | --- | --- | --- |
/// | start | 2 | BEGIN + limit logs + fraud counters (+ idempotency record); writes + COMMIT |
/// | check | 3 | BEGIN + verification + IP check log; the number's lockout log (its key needs the number); writes + COMMIT |
/// | resend | 3 | BEGIN + verification; the send limit logs + fraud counters (keys need the number); writes + COMMIT |
/// | cancel | 2 | BEGIN + verification; writes + COMMIT |
/// | get (read) | 1 | the verification and its latest message in one pipeline |
///
/// A refused start (429) costs BEGIN + reads, then ROLLBACK: 2; a write that reads nothing
/// (BEGIN, writes and COMMIT together): 1. Outbox calls (claim, complete, renew, release,
/// receipt, queue depth) are 1 each, purge 2. The Twilio-compatible records' reads go straight
/// to the server, one round trip each (see `PostgresStore+TwilioCompat.swift`). Blocking calls
/// run on the caller's thread; the pool is thread-safe and a transaction holds one connection
/// throughout.
public final class PostgresStore: VerificationStore, OutboxStore, EventOutboxStore, SigningKeyStore, Sendable {
    let pool: PostgresPool
    /// The URL connected to, password replaced by `***`: safe for logs.
    public let displayURL: String

    /// `url` as `displayURL` shows it (password hidden), without connecting.
    public static func displayURL(_ url: String) -> String {
        (try? PostgresURL(url))?.description ?? "postgres (the URL does not parse)"
    }
    /// What is wrong with `url` as libpq and the wrapper read it (a sentence without the password),
    /// or `nil` when it parses: for the configuration check, before anything connects.
    public static func urlProblem(_ url: String) -> String? {
        do {
            _ = try PostgresURL(url)
            return nil
        } catch let error as PostgresError {
            return error.message
        } catch {
            return "invalid PostgreSQL URL"
        }
    }
    private let trips = Atomic<Int>(0)
    /// How far back (ms) a write prefetches fraud buckets; grows when a body needs older ones.
    private let fraudLookback = Atomic<Int64>(2 * 3_600_000)

    /// Attempts per transaction before a retriable failure is reported.
    static let maxAttempts = 8
    /// Rounds of misses a body may reveal before the store gives up (the current bodies need ≤ 2).
    static let maxRounds = 16

    /// Connects a pool of up to `poolSize` connections to `url` (`postgres://user:pass@host:port/db?sslmode=…`;
    /// TLS and other libpq options pass through) and applies pending migrations under an advisory
    /// lock, so replicas starting together migrate once. With `schema`, the store lives in that
    /// schema (created if missing; every connection gets it as its `search_path`), e.g. to share
    /// one database between test runs. Sessions get `idle_in_transaction_session_timeout=30s`
    /// unless the URL's `options` set it. Throws ``PostgresStoreError/unreachable(url:underlying:)``
    /// when the server cannot be reached, ``PostgresStoreError/databaseIsNewer(databaseVersion:newestKnown:)``
    /// for a database migrated by a newer build.
    /// `counter` counts statements and round trips at the connections (the statement budget's tests).
    public init(url: String, poolSize: Int = 8, schema: String? = nil, counter: QueryCounter? = nil) throws {
        var parsed = try PostgresURL(url)
        var settings: [String] = []
        if let schema {
            guard Self.isPlainIdentifier(schema) else { throw PostgresStoreError.invalidSchemaName(schema) }
            settings.append("-c search_path=\(schema)")
        }
        // A replica frozen mid-transaction (SIGSTOP, a stalled VM) must not hold row locks, such as
        // the global send log's, for ever: the server ends such a session. Transactions here last
        // milliseconds between statements. The URL's own `options` can set another value.
        if !(parsed.option("options") ?? "").contains("idle_in_transaction_session_timeout") {
            settings.append("-c idle_in_transaction_session_timeout=30s")
        }
        // Every write body relies on READ COMMITTED (a wait on a locked row then sees the committed
        // row): a database or role defaulting to repeatable read or serializable would turn every
        // wait on a hot limit row into a serialization failure. Last, so it wins.
        settings.append("-c default_transaction_isolation=read\\ committed")
        // A database path that silently drops packets (a failed-over address, a broken NAT) must not
        // hold a request thread for the kernel's TCP timeout (~15 min): TCP keepalives notice an
        // idle pooled connection's peer is gone, and an unacknowledged send fails after 30 s.
        // Any of these in the URL wins.
        for (key, value) in [("keepalives", "1"), ("keepalives_idle", "30"), ("keepalives_interval", "10"),
                             ("keepalives_count", "3"), ("tcp_user_timeout", "30000")] where parsed.option(key) == nil {
            parsed.setOption(key, value)
        }
        if !settings.isEmpty {
            let setting = settings.joined(separator: " ")
            parsed.setOption("options", parsed.option("options").map { $0 + " " + setting } ?? setting)
        }
        pool = PostgresPool(url: parsed, size: poolSize, counter: counter)
        displayURL = parsed.description
        do {
            try pool.withConnection { connection in
                if let schema {
                    do {
                        try connection.execute("CREATE SCHEMA IF NOT EXISTS \(schema)")
                    } catch let error as PostgresError where error.isUniqueViolation || error.sqlState == "42P06" {
                        // Created concurrently by another store: fine.
                    }
                }
                try PostgresMigrator.migrate(connection, PostgresSchema.migrations)
            }
        } catch let error as PostgresError where error.isConnectionFailure {
            pool.close()
            throw PostgresStoreError.unreachable(url: parsed.description, underlying: error)
        } catch {
            pool.close()
            throw error
        }
    }

    /// The schema version after migrations.
    public static var latestSchemaVersion: Int { PostgresSchema.migrations.last?.version ?? 0 }

    /// Closes idle connections now and borrowed ones when they come back; later calls throw.
    public func close() { pool.close() }

    /// Round trips to the server so far (each pipeline, query or command that waited for an
    /// answer), for tests and diagnostics.
    public var roundTrips: Int { trips.load(ordering: .relaxed) }

    /// Counts one round trip made by other means (a transaction's direct reads).
    func countTrip() { trips.add(1, ordering: .relaxed) }

    /// Counts one round trip.
    func trip<T>(_ body: () throws -> T) rethrows -> T {
        trips.add(1, ordering: .relaxed)
        return try body()
    }

    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 63, !(48...57).contains(first) else { return false }
        return name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
    }

    // MARK: VerificationStore

    public func write<T: Sendable>(reading: ReadSet, _ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws -> T {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in try runWrite(connection, reading, body) }
        }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) throws -> T {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                let tx = CachedTransaction(mode: .read, fraudFrom: fraudFrom(), connection: connection, countTrip: countTrip)
                var rounds = 0
                while true {
                    tx.startRun()
                    let outcome = Result { try body(tx) }
                    if let failure = tx.directFailure { throw failure }
                    let misses = tx.changes.misses
                    if misses.isEmpty { return try outcome.mapError(BodyError.init).get() }
                    rounds += 1
                    guard rounds <= Self.maxRounds else { throw PostgresStoreError.tooManyDependentReads(rounds: Self.maxRounds) }
                    learnFraudLookback(misses)
                    let plan = tx.plan(misses)
                    let results = try trip { try connection.pipeline(plan.map { ($0.sql, $0.params) }) }
                    try absorb(plan, results)
                }
            }
        }
    }

    /// One attempt at a write transaction on `connection`.
    private func runWrite<T>(
        _ connection: PostgresConnection, _ reading: ReadSet, _ body: (any StoreTransaction) throws -> T
    ) throws -> T {
        let tx = CachedTransaction(mode: .write, fraudFrom: fraudFrom(), connection: connection, countTrip: countTrip)
        var wants = Wants(reading, fraudFrom: tx.fraudFrom)
        // BEGIN travels with the first statements that need it: the first fetch or direct read
        // (`tx.begun`), or the commit.
        var rounds = 0
        do {
            while true {
                if !wants.isEmpty {
                    learnFraudLookback(wants)
                    let plan = tx.plan(wants)
                    var statements = plan.map { (sql: $0.sql, params: $0.params) }
                    if !tx.begun { statements.insert(("BEGIN", []), at: 0) }
                    let results = try trip { try connection.pipeline(statements) }
                    tx.begun = true
                    try absorb(plan, Array(results.suffix(plan.count)))
                }
                tx.startRun()
                let outcome = Result { try body(tx) }
                if let failure = tx.directFailure { throw failure }
                let misses = tx.changes.misses
                if misses.isEmpty {
                    let value = try outcome.mapError(BodyError.init).get()
                    var statements = tx.changes.statements + tx.bufferedWrites()
                    if statements.isEmpty {
                        if tx.begun { try trip { try connection.execute("COMMIT") } }
                        return value
                    }
                    if !tx.begun { statements.insert(("BEGIN", []), at: 0) }
                    statements.append(("COMMIT", []))
                    do {
                        _ = try trip { try connection.pipelineResults(statements) }
                    } catch let error as PostgresError where error.isConnectionFailure {
                        throw PostgresStoreError.commitOutcomeUnknown(underlying: error)
                    }
                    return value
                }
                rounds += 1
                guard rounds <= Self.maxRounds else { throw PostgresStoreError.tooManyDependentReads(rounds: Self.maxRounds) }
                wants = misses
            }
        } catch {
            if connection.isInTransaction {
                _ = try? trip { try connection.execute("ROLLBACK") }
            }
            throw error
        }
    }

    private func absorb(_ plan: [Fetch], _ results: [[PostgresRow]]) throws {
        for (fetch, rows) in zip(plan, results) { try fetch.absorb?(rows) }
    }

    /// The oldest fraud bucket fetched by default: the look-back before the wall clock.
    private func fraudFrom() -> Int64 {
        PostgresRows.ms(Date()) - fraudLookback.load(ordering: .relaxed)
    }

    /// Remembers that bodies read older fraud buckets than the default fetches, so later
    /// transactions fetch enough in their first round trip (capped at two days).
    private func learnFraudLookback(_ wants: Wants) {
        guard let oldest = wants.fraudKeys.filter({ !wants.fraudHistoryKeys.contains($0.key) }).values.min() else { return }
        let needed = min(PostgresRows.ms(Date()) - oldest + 600_000, 2 * 86_400_000)
        var current = fraudLookback.load(ordering: .relaxed)
        while needed > current {
            let (exchanged, original) = fraudLookback.compareExchange(expected: current, desired: needed, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }

    // MARK: Retries

    /// An error the body threw: never retried, unwrapped for the caller.
    struct BodyError: Error {
        let error: any Error
    }

    /// Runs `attempt` again after failures that a fresh attempt can resolve; rethrows others.
    /// `connectionFailures`: whether a connection lost mid-call may be retried (only when the
    /// call is safe to repeat: a transaction before COMMIT, an idempotent statement).
    func retrying<T>(connectionFailures: Bool, _ attempt: () throws -> T) throws -> T {
        var number = 0
        while true {
            number += 1
            do {
                return try attempt()
            } catch let wrapped as BodyError {
                throw wrapped.error
            } catch {
                guard number < Self.maxAttempts, Self.isRetriable(error, connectionFailures: connectionFailures) else {
                    throw error
                }
                // A tiny jittered pause, growing with the attempt, so colliding transactions drift apart.
                usleep(UInt32.random(in: 200...2_000) * UInt32(number))
            }
        }
    }

    static func isRetriable(_ error: any Error, connectionFailures: Bool) -> Bool {
        if error is RetryTransaction { return true }
        guard let error = error as? PostgresError else { return false }
        if error.isSerializationFailure || error.isDeadlock { return true }
        if error.isUniqueViolation {
            return error.constraint.map(PostgresSchema.retriableUniqueConstraints.contains) ?? true
        }
        // A prepared statement that went stale (DISCARD ALL, a column type changed): the cache was emptied.
        if error.sqlState == "26000"
            || (error.sqlState == "0A000" && error.message.contains("cached plan must not change result type"))
        {
            return true
        }
        return connectionFailures && error.isConnectionFailure
    }
}
