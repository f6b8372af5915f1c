import Foundation
import SQLite
import Testing
import ThreadTesting

@Suite("Database")
struct DatabaseTests {
    let directory = TemporaryDirectory()

    @Test func createsDirectoryAndSetsWALAndSynchronous() throws {
        let database = try openItemsDatabase(directory, name: "nested/deeper/wal.db")
        defer { database.close() }
        #expect(database.appliedMigrations == [1])
        #expect(FileManager.default.fileExists(atPath: directory.file("nested/deeper/wal.db")))
        let mode = try database.read { try $0.queryOne("PRAGMA journal_mode")?.text(0) }
        #expect(mode == "wal")
        // synchronous is per connection: ask the writer's.
        let synchronous = try database.write { try $0.queryOne("PRAGMA synchronous")?.int(0) }
        #expect(synchronous == 1)  // NORMAL
        let foreignKeys = try database.write { try $0.queryOne("PRAGMA foreign_keys")?.int(0) }
        #expect(foreignKeys == 1)
        // Savepoint (statement) journals of the writer stay in memory instead of temp files.
        let tempStore = try database.write { try $0.queryOne("PRAGMA temp_store")?.int(0) }
        #expect(tempStore == 2)  // MEMORY
    }

    @Test func largeBatchesRollBackOneJobFromTheInMemoryJournal() throws {
        let database = try openItemsDatabase(directory)
        defer { database.close() }
        let filler = String(repeating: "x", count: 2000)
        try database.write { db in
            for index in 0..<200 { try db.run("INSERT INTO items (name) VALUES (?)", [.text("\(index)-\(filler)")]) }
        }
        // A job touching far more than the 64 KiB SQLite would otherwise spill to a file, then failing.
        #expect(throws: SQLiteError.self) {
            try database.write { db in
                try db.run("UPDATE items SET thread = thread + 1")
                try db.run("INSERT INTO items (name) VALUES (?)", [.text("0-\(filler)")])
            }
        }
        #expect(try database.read { try $0.queryOne("SELECT SUM(thread) FROM items")?.int(0) } == 0)
        #expect(try itemCount(database) == 200)
    }

    @Test func synchronousIsConfigurableAndValidated() throws {
        let full = try openItemsDatabase(directory, name: "full.db") { $0.synchronous = "FULL" }
        #expect(try full.write { try $0.queryOne("PRAGMA synchronous")?.int(0) } == 2)
        full.close()
        #expect(throws: SQLiteError.self) {
            try openItemsDatabase(directory, name: "bad.db") { $0.synchronous = "NORMAL; DROP TABLE x" }
        }
        #expect(throws: SQLiteError.self) {
            try openItemsDatabase(directory, name: "bad.db") { $0.readerCount = 0 }
        }
    }

    @Test func writeReturnsValuesIncludingNil() throws {
        let database = try openItemsDatabase(directory)
        defer { database.close() }
        let id = try database.write { try $0.queryOne("INSERT INTO items (name) VALUES ('a') RETURNING id")?.int(0) }
        #expect(id == 1)
        let missing: Int64? = try database.write { try $0.queryOne("SELECT id FROM items WHERE name = 'zz'")?.int(0) }
        #expect(missing == nil)
        let row = try database.write { try $0.queryOne("SELECT id, name FROM items") }
        #expect(row?.text("name") == "a")
    }

    @Test func writeErrorsReachTheCaller() throws {
        let database = try openItemsDatabase(directory)
        defer { database.close() }
        try database.write { try $0.run("INSERT INTO items (name) VALUES ('a')") }
        let error = try #require(throws: SQLiteError.self) {
            try database.write { try $0.run("INSERT INTO items (name) VALUES ('a')") }
        }
        #expect(error.isConstraint)
        #expect(database.statistics.failedJobs == 1)
        #expect(try itemCount(database) == 1)
    }

    @Test func nestedWritesRunInlineWithSavepoints() throws {
        let database = try openItemsDatabase(directory)
        defer { database.close() }
        try database.write { connection in
            try connection.run("INSERT INTO items (name) VALUES ('outer')")
            try database.write { try $0.run("INSERT INTO items (name) VALUES ('inner')") }
            #expect(throws: IntentionalError.self) {
                try database.write { inner in
                    try inner.run("INSERT INTO items (name) VALUES ('rolled back')")
                    throw IntentionalError(label: "nested")
                }
            }
        }
        let names = try database.read { try $0.query("SELECT name FROM items ORDER BY id").compactMap { $0.text(0) } }
        #expect(names == ["outer", "inner"])
        #expect(database.statistics.jobs == 1)
    }

    @Test func bodiesMayNotEndTheTransaction() throws {
        let database = try openItemsDatabase(directory)
        defer { database.close() }
        #expect(throws: SQLiteError.self) { try database.write { try $0.execute("COMMIT") } }
        try database.write { try $0.run("INSERT INTO items (name) VALUES ('still works')") }
        #expect(try itemCount(database) == 1)
    }

    @Test func readersRunBesideAnOpenWriteAndSeeOnlyCommits() throws {
        let database = try openItemsDatabase(directory)
        defer { database.close() }
        let inserted = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            _ = try? database.write { connection in
                try connection.run("INSERT INTO items (name) VALUES ('pending')")
                inserted.signal()
                release.wait()
            }
            finished.signal()
        }.start()
        inserted.wait()
        // The writer holds an open transaction; a reader is not blocked and
        // does not see the uncommitted row.
        #expect(try itemCount(database) == 0)
        release.signal()
        finished.wait()
        #expect(try itemCount(database) == 1)
    }

    @Test func concurrentReadersSeeCommittedData() throws {
        let database = try openItemsDatabase(directory) { $0.readerCount = 3 }
        defer { database.close() }
        let total = 300
        let problems = Collector<String>()
        onThreads(6) { index in
            if index == 0 {
                for number in 0..<total {
                    do { try database.write { try $0.run("INSERT INTO items (name) VALUES (?)", [.text("n\(number)")]) } }
                    catch { problems.append("write: \(error)") }
                }
                return
            }
            var last: Int64 = 0
            for _ in 0..<200 {
                do {
                    let count = try itemCount(database)
                    if count < last { problems.append("count went back from \(last) to \(count)") }
                    last = count
                } catch { problems.append("read: \(error)") }
            }
        }
        #expect(problems.values.isEmpty)
        #expect(try itemCount(database) == Int64(total))
    }

    @Test func dataPersistsAcrossCloseAndReopen() throws {
        let path = "persist.db"
        do {
            let database = try openItemsDatabase(directory, name: path)
            for number in 0..<50 {
                try database.write { try $0.run("INSERT INTO items (name) VALUES (?)", [.text("p\(number)")]) }
            }
            #expect(try itemCount(database) == 50)  // opens a reader too
            database.close()
            // Every connection (writer and readers) is closed: the last close
            // checkpoints the WAL and deletes it.
            #expect(!FileManager.default.fileExists(atPath: directory.file(path) + "-wal"))
            database.close()  // idempotent
            #expect(throws: SQLiteError.self) { try database.write { _ in 1 } }
            #expect(throws: SQLiteError.self) { try database.read { _ in 1 } }
        }
        let reopened = try openItemsDatabase(directory, name: path)
        defer { reopened.close() }
        #expect(reopened.appliedMigrations == [])
        #expect(try itemCount(reopened) == 50)
        let raw = try Connection(path: directory.file(path), readOnly: true)
        #expect(try raw.queryOne("SELECT name FROM items ORDER BY id DESC")?.text(0) == "p49")
    }

    @Test func closeDrainsQueuedWrites() throws {
        let database = try openItemsDatabase(directory)
        let outcomes = Collector<Bool>()
        onThreads(9) { index in
            if index == 8 {
                usleep(2_000)
                database.close()
                return
            }
            for number in 0..<100 {
                do {
                    try database.write { try $0.run("INSERT INTO items (name) VALUES (?)", [.text("\(index)-\(number)")]) }
                    outcomes.append(true)
                } catch {
                    outcomes.append(false)
                }
            }
        }
        // Every write that reported success is on disk, none that failed is.
        let succeeded = outcomes.values.filter { $0 }.count
        let check = try Connection(path: directory.file("test.db"), readOnly: true)
        #expect(try check.queryOne("SELECT COUNT(*) FROM items")?.int(0) == Int64(succeeded))
    }
}
