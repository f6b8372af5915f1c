import Foundation
import SQLite
import Testing
import ThreadTesting

/// Throughput of single-row inserts from many threads. Off by default (it
/// takes a while and other tests running in parallel would skew it); run with
/// `SQLITE_BENCH=1 swift test -c release --filter SQLiteTests.Benchmark`.
@Suite("Benchmark", .serialized, .enabled(if: ProcessInfo.processInfo.environment["SQLITE_BENCH"] != nil))
struct BenchmarkTests {
    static let threads = 64
    static let perThread = 500
    let directory = TemporaryDirectory()

    static let schema = [Migration(version: 1, name: "events", sql: """
        CREATE TABLE events (id INTEGER PRIMARY KEY, thread INTEGER NOT NULL, seq INTEGER NOT NULL, payload TEXT NOT NULL)
        """)]

    /// Inserts through `Database.write` from 64 threads; returns writes per second.
    func throughWriter(_ name: String, synchronous: String, maxBatchSize: Int) throws -> Double {
        let configuration = DatabaseConfiguration(
            path: directory.file("\(name)-\(synchronous).db"), synchronous: synchronous, maxBatchSize: maxBatchSize)
        let database = try Database(configuration, migrations: Self.schema)
        defer { database.close() }
        let errors = Collector<String>()
        let start = Date()
        onThreads(Self.threads) { thread in
            for seq in 0..<Self.perThread {
                do {
                    try database.write {
                        try $0.run("INSERT INTO events (thread, seq, payload) VALUES (?, ?, ?)",
                                   [.integer(Int64(thread)), .integer(Int64(seq)), "payload-\(thread)-\(seq)"])
                    }
                } catch {
                    errors.append("\(error)")
                }
            }
        }
        #expect(errors.values.isEmpty, "\(errors.values.count) errors, first: \(errors.values.first ?? "")")
        let seconds = Date().timeIntervalSince(start)
        let total = Self.threads * Self.perThread
        let stored = try database.read { try $0.queryOne("SELECT COUNT(*) FROM events")?.int(0) ?? -1 }
        #expect(stored == Int64(total))
        let stats = database.statistics
        let perSecond = Double(total) / seconds
        print(String(format: "BENCH %-34@ %8.0f writes/s  (%d writes, %d transactions, avg batch %.1f, largest %d)",
                     "\(name) sync=\(synchronous)" as NSString, perSecond, total, stats.batches,
                     Double(stats.jobs) / Double(max(stats.batches, 1)), stats.largestBatch))
        return perSecond
    }

    /// The naive alternative: one shared connection behind a lock, one
    /// transaction per write, the lock held across the commit.
    func lockedConnection(synchronous: String) throws -> Double {
        final class Shared: @unchecked Sendable {
            let lock = NSLock()
            let connection: Connection
            init(_ connection: Connection) { self.connection = connection }
        }
        let path = directory.file("locked-\(synchronous).db")
        let connection = try Connection(path: path)
        try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = \(synchronous)")
        try Migrator.migrate(connection, Self.schema)
        let shared = Shared(connection)
        let start = Date()
        onThreads(Self.threads) { thread in
            for seq in 0..<Self.perThread {
                shared.lock.lock()
                do {
                    try shared.connection.run("BEGIN IMMEDIATE")
                    try shared.connection.run("INSERT INTO events (thread, seq, payload) VALUES (?, ?, ?)",
                                              [.integer(Int64(thread)), .integer(Int64(seq)), "payload-\(thread)-\(seq)"])
                    try shared.connection.run("COMMIT")
                } catch {
                    try? shared.connection.execute("ROLLBACK")
                }
                shared.lock.unlock()
            }
        }
        let seconds = Date().timeIntervalSince(start)
        let total = Self.threads * Self.perThread
        let perSecond = Double(total) / seconds
        print(String(format: "BENCH %-34@ %8.0f writes/s  (%d writes, %d transactions)",
                     "locked connection sync=\(synchronous)" as NSString, perSecond, total, total))
        return perSecond
    }

    @Test func groupCommitVersusOneTransactionPerWrite() throws {
        for synchronous in ["NORMAL", "FULL"] {
            let batched = try throughWriter("group commit (batch 64)", synchronous: synchronous, maxBatchSize: 64)
            let single = try throughWriter("writer thread, batch 1", synchronous: synchronous, maxBatchSize: 1)
            let locked = try lockedConnection(synchronous: synchronous)
            print(String(format: "BENCH sync=%@: group commit is %.1fx one-transaction-per-write (writer), %.1fx (lock)",
                         synchronous as NSString, batched / single, batched / locked))
            #expect(batched > single)
        }
    }
}
