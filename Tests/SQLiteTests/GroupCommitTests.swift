import Foundation
import SQLite
import Testing
import ThreadTesting

@Suite("Group commit")
struct GroupCommitTests {
    let directory = TemporaryDirectory()

    @Test func manyThreadsAllCommittedInFewerTransactions() throws {
        let database = try openItemsDatabase(directory)
        defer { database.close() }
        let threads = 8, perThread = 500
        let failures = Collector<String>()
        onThreads(threads) { thread in
            for number in 0..<perThread {
                do {
                    let id = try database.write { connection -> Int64 in
                        try connection.run("INSERT INTO items (name, thread) VALUES (?, ?)",
                                           [.text("\(thread)-\(number)"), .integer(Int64(thread))])
                        return connection.lastInsertRowID
                    }
                    if id <= 0 { failures.append("bad id \(id)") }
                } catch {
                    failures.append("\(error)")
                }
            }
        }
        #expect(failures.values.isEmpty)
        #expect(try itemCount(database) == Int64(threads * perThread))
        let perThreadCounts = try database.read {
            try $0.query("SELECT thread, COUNT(*) FROM items GROUP BY thread").map { $0.int(1) }
        }
        #expect(perThreadCounts == Array(repeating: Int64(perThread), count: threads))
        let stats = database.statistics
        #expect(stats.jobs == threads * perThread)
        #expect(stats.failedJobs == 0)
        #expect(stats.batches < stats.jobs)
        #expect(stats.largestBatch > 1 && stats.largestBatch <= 64)
        #expect(stats.queueDepth == 0)
    }

    @Test func failingJobDoesNotAffectOthersInItsBatch() throws {
        let database = try openItemsDatabase(directory)
        defer { database.close() }
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let results = Collector<String>()
        onThreads(5) { index in
            switch index {
            case 0:  // occupies the writer so the next three jobs queue into one batch
                _ = try? database.write { connection in
                    try connection.run("INSERT INTO items (name) VALUES ('first')")
                    for _ in 1...4 { started.signal() }  // one per waiting thread
                    release.wait()
                }
            case 4:  // releases the writer once the others are queued
                started.wait()
                let queued = eventually { database.statistics.queueDepth == 3 }
                results.append("queued:\(queued)")
                release.signal()
            default:
                started.wait()
                do {
                    try database.write { connection in
                        try connection.run("INSERT INTO items (name) VALUES (?)", [.text("job\(index)")])
                        if index == 2 { throw IntentionalError(label: "job2") }
                    }
                    results.append("ok:\(index)")
                } catch let error as IntentionalError {
                    results.append("failed:\(error.label)")
                } catch {
                    results.append("unexpected:\(error)")
                }
            }
        }
        #expect(Set(results.values) == ["queued:true", "ok:1", "ok:3", "failed:job2"])
        let names = try database.read { try $0.query("SELECT name FROM items ORDER BY name").compactMap { $0.text(0) } }
        #expect(names == ["first", "job1", "job3"])
        let stats = database.statistics
        #expect(stats.batches == 2)
        #expect(stats.largestBatch == 3)
        #expect(stats.failedJobs == 1)
        #expect(stats.failedBatches == 0)
    }

    @Test func twoDatabasesOnOneFileBothWrite() throws {
        let first = try openItemsDatabase(directory, name: "shared.db")
        let second = try openItemsDatabase(directory, name: "shared.db")
        defer { first.close(); second.close() }
        #expect(first.appliedMigrations == [1])
        #expect(second.appliedMigrations == [])
        let failures = Collector<String>()
        onThreads(8) { index in
            let database = index % 2 == 0 ? first : second
            for number in 0..<150 {
                do {
                    try database.write {
                        try $0.run("INSERT INTO items (name, thread) VALUES (?, ?)",
                                   [.text("\(index)-\(number)"), .integer(Int64(index))])
                    }
                } catch {
                    failures.append("\(error)")
                }
            }
        }
        #expect(failures.values.isEmpty)
        #expect(try itemCount(first) == 1_200)
        #expect(try itemCount(second) == 1_200)
    }

    @Test func busyLockFailsTheBatchAfterOneRetry() throws {
        let database = try openItemsDatabase(directory) { $0.busyTimeoutMillis = 50 }
        defer { database.close() }
        let other = try Connection(path: directory.file("test.db"), busyTimeoutMillis: 50)
        try other.execute("BEGIN IMMEDIATE")
        let error = try #require(throws: SQLiteError.self) {
            try database.write { try $0.run("INSERT INTO items (name) VALUES ('blocked')") }
        }
        #expect(error.isBusy)
        let stats = database.statistics
        #expect(stats.busyRetries == 1)
        #expect(stats.failedBatches == 1)
        try other.execute("ROLLBACK")
        try database.write { try $0.run("INSERT INTO items (name) VALUES ('after')") }
        #expect(try itemCount(database) == 1)
    }

    @Test func batchWaitGathersMoreJobs() throws {
        let database = try openItemsDatabase(directory) {
            $0.maxBatchWaitMicros = 2_000
            $0.maxBatchSize = 16
        }
        defer { database.close() }
        onThreads(16) { index in
            for number in 0..<20 {
                _ = try? database.write { try $0.run("INSERT INTO items (name) VALUES (?)", [.text("\(index)-\(number)")]) }
            }
        }
        let stats = database.statistics
        #expect(try itemCount(database) == 320)
        #expect(stats.largestBatch <= 16)
        #expect(stats.batches < 320)
    }

    /// The wait is for concurrent callers only: one caller writing in a loop is never held
    /// back (10 writes would take 5 s if each waited out the 500 ms).
    @Test func aLoneCallerNeverWaitsForABatch() throws {
        let database = try openItemsDatabase(directory) { $0.maxBatchWaitMicros = 500_000 }
        defer { database.close() }
        let started = Date()
        for number in 0..<10 {
            try database.write { try $0.run("INSERT INTO items (name) VALUES (?)", [.text("\(number)")]) }
        }
        #expect(Date().timeIntervalSince(started) < 2.5)
        #expect(database.statistics.batches == 10)
    }
}
