import Foundation
import SQLiteStore
import PostgresStore
import Testing
import VerifyCore
import VerifyTesting

/// The statement budget (docs/BENCHMARKS.md, "Statement budget"): what one start, one check and
/// one resend execute on each store, with the service's default settings (limits and fraud guard
/// on, one channel, no challenge provider, events off). A count above its budget fails: a change
/// that adds work to every request either stays off this path or raises the budget here, in the
/// same commit, with its reason. A count below it fails too, so the budget follows a saving down
/// and cannot hide a later rise.
@Suite("Statement budget")
struct StatementBudgetTests {
    /// What one call may cost on SQLite: statements the store runs, rows they yield, and
    /// transaction control (a lone write: BEGIN IMMEDIATE, SAVEPOINT, RELEASE, COMMIT).
    struct SQLiteBudget: Equatable, CustomStringConvertible {
        var statements: Int, rows: Int, control: Int
        var description: String { "\(statements) statements, \(rows) rows, \(control) transaction control" }
    }

    /// Why each statement is there, so that raising a number means adding a line.
    static let sqlite: [String: (budget: SQLiteBudget, why: String)] = [
        // 1 prefetch (the send limit logs, the lockout log, fraud overrides and counter sums in
        // one UNION ALL), 1 outbox insert, 1 verification insert, 1 fraud counter upsert, 1 limit
        // log upsert. Rows: the client's limit logs that exist, one sum row per fraud key.
        "start": (SQLiteBudget(statements: 5, rows: 4, control: 4), "prefetch, outbox, verification, fraud counters, limit logs"),
        // 1 prefetch (the client's check log), 1 verification read, 1 lockout log read (its key
        // needs the number), 1 verification update, 1 fraud counter upsert (the approval), 1 limit
        // log upsert. Rows: the verification (the client's check log is new here).
        "check": (SQLiteBudget(statements: 6, rows: 1, control: 4), "prefetch, verification, lockout log, update, fraud counters, limit logs"),
        // 1 verification read; the send limit logs, the lockout log, fraud overrides and counter
        // sums read one by one (their keys need the number: 11); supersede, outbox insert,
        // verification update, fraud counter upsert, limit log upsert (5).
        "resend": (SQLiteBudget(statements: 17, rows: 9, control: 4), "verification, 11 keyed reads, supersede, outbox, update, fraud counters, limit logs"),
    ]

    /// What one call may cost on PostgreSQL: statements sent and round trips (never more than 3).
    static let postgres: [String: (statements: Int, roundTrips: Int, why: String)] = [
        "start": (9, 2, "BEGIN + limit logs (insert-if-missing, lock) + fraud overrides + counter sums; outbox, verification, counters, logs + COMMIT"),
        "check": (10, 3, "BEGIN + verification + the client's check log; the number's lockout log; writes + COMMIT"),
        "resend": (11, 3, "BEGIN + verification; the send limit logs + fraud reads (keys need the number); writes + COMMIT"),
    ]

    /// Runs start, check (right code) and resend once each, after a warm-up flow that prepares
    /// every statement, and returns what each cost by `measure`.
    static func costs<T>(
        _ store: any VerificationStore & OutboxStore, _ measure: () -> T, _ minus: (T, T) -> T
    ) throws -> [String: T] {
        let clock = ManualClock()
        let random = SeededRandom(seed: 11)
        let service = VerificationService(
            store: store, parser: FakePhoneParser(), hasher: FakeHasher(), sealer: FakeSealer(), random: random, clock: clock,
            policy: VerificationPolicy(), composer: TemplateComposer(), notifier: CountingNotifier(),
            issuer: CredentialIssuer(issuer: "http://issuer.test", audience: "main-auth", keys: FakeSigner(), random: random))
        func cost(_ body: () throws -> Void) rethrows -> T {
            let before = measure()
            try body()
            return minus(measure(), before)
        }
        func code(_ id: String) throws -> String {
            let message = try #require(try store.read { try $0.latestMessage(verificationID: id) })
            return try MessagePayload(json: try FakeSealer().open(message.sealedPayload)).code
        }
        // Warm-up on another number and client: statements prepared, limit rows created.
        let warm = try service.start(StartRequest(phoneNumber: "+15555550300", clientIP: "10.8.0.1")).verification.id
        clock.advance(31)
        _ = try service.resend(id: warm, clientIP: "10.8.0.1")
        _ = try service.check(id: warm, code: try code(warm), clientIP: "10.8.0.1")

        var costs: [String: T] = [:]
        var id = ""
        costs["start"] = try cost { id = try service.start(StartRequest(phoneNumber: "+15555550301", clientIP: "10.8.0.2")).verification.id }
        clock.advance(31)
        costs["resend"] = try cost { _ = try service.resend(id: id, clientIP: "10.8.0.2") }
        let right = try code(id)
        costs["check"] = try cost { _ = try service.check(id: id, code: right, clientIP: "10.8.0.2") }
        return costs
    }

    @Test func sqliteStaysWithinItsBudget() throws {
        let counter = StatementCounter()
        let store = try SQLiteStore(path: NSTemporaryDirectory() + "pv-budget-" + UUID().uuidString + "/test.db", counter: counter)
        defer { store.close() }
        let costs = try Self.costs(
            store, { SQLiteBudget(statements: counter.statements, rows: counter.rows, control: counter.transactionControl) },
            { SQLiteBudget(statements: $0.statements - $1.statements, rows: $0.rows - $1.rows, control: $0.control - $1.control) })
        for (call, entry) in Self.sqlite {
            let spent = try #require(costs[call])
            #expect(spent == entry.budget, "\(call) on SQLite: \(spent), budget \(entry.budget) (\(entry.why))")
        }
    }

    @Test func postgresStaysWithinItsBudget() throws {
        let counter = QueryCounter()
        let url = ProcessInfo.processInfo.environment["PHONE_VERIFY_TEST_POSTGRES_URL"]
            ?? "postgres://postgres@127.0.0.1:55432/phone_verify_test"
        let schema = "pv_contract_\(Int(Date().timeIntervalSince1970))_\(UInt32.random(in: 0...UInt32.max))"
        // One connection: every statement is prepared on it during the warm-up.
        let store = try PostgresStore(url: url, poolSize: 1, schema: schema, counter: counter)
        defer { store.close() }
        let costs = try Self.costs(
            store, { (counter.statements, counter.roundTrips) }, { ($0.0 - $1.0, $0.1 - $1.1) })
        for (call, entry) in Self.postgres {
            let spent = try #require(costs[call])
            #expect(spent.0 == entry.statements, "\(call) on PostgreSQL: \(spent.0) statements, budget \(entry.statements) (\(entry.why))")
            #expect(spent.1 == entry.roundTrips, "\(call) on PostgreSQL: \(spent.1) round trips, budget \(entry.roundTrips)")
            #expect(spent.1 <= 3, "\(call) on PostgreSQL takes \(spent.1) round trips; a request may take 3 at most")
        }
    }
}
