import Postgres
import Testing
import ThreadTesting

/// `transaction { }`: commit on return, rollback on throw, savepoints when nested.
@Suite("Transactions")
struct TransactionTests {
    struct Boom: Error {}

    @Test func commitsWhenTheBodyReturns() throws {
        let connection = try TestServer.connect()
        try withTable(connection, "id int PRIMARY KEY") { table throws in
            let inserted = try connection.transaction { tx in
                try tx.run("INSERT INTO \(table) VALUES (1), (2)")
            }
            #expect(inserted == 2)
            #expect(!connection.isInTransaction)
            let other = try TestServer.connect()
            #expect(try other.queryFirst("SELECT count(*) AS n FROM \(table)")?.int("n") == 2)
        }
    }

    @Test func rollsBackWhenTheBodyThrows() throws {
        let connection = try TestServer.connect()
        try withTable(connection, "id int PRIMARY KEY") { table throws in
            #expect(throws: Boom.self) {
                try connection.transaction { tx in
                    try tx.run("INSERT INTO \(table) VALUES (1)")
                    #expect(tx.isInTransaction)
                    throw Boom()
                }
            }
            #expect(!connection.isInTransaction)
            #expect(try connection.queryFirst("SELECT count(*) AS n FROM \(table)")?.int("n") == 0)
        }
    }

    @Test func rollsBackWhenAStatementFails() throws {
        let connection = try TestServer.connect()
        try withTable(connection, "id int PRIMARY KEY") { table throws in
            let error = #expect(throws: PostgresError.self) {
                try connection.transaction { tx in
                    try tx.run("INSERT INTO \(table) VALUES (1)")
                    try tx.run("INSERT INTO \(table) VALUES (1)")
                }
            }
            #expect(error?.isUniqueViolation == true)
            #expect(try connection.queryFirst("SELECT count(*) AS n FROM \(table)")?.int("n") == 0)
        }
    }

    @Test func aSwallowedErrorDoesNotPretendToCommit() throws {
        let connection = try TestServer.connect()
        try withTable(connection, "id int PRIMARY KEY") { table throws in
            let error = #expect(throws: PostgresError.self) {
                try connection.transaction { tx in
                    try tx.run("INSERT INTO \(table) VALUES (1)")
                    _ = try? tx.run("INSERT INTO \(table) VALUES (1)")
                }
            }
            #expect(error?.sqlState == "25P02")
            #expect(!connection.isInTransaction)
            #expect(try connection.queryFirst("SELECT count(*) AS n FROM \(table)")?.int("n") == 0)
        }
    }

    @Test func nestedTransactionsUseSavepoints() throws {
        let connection = try TestServer.connect()
        try withTable(connection, "id int PRIMARY KEY") { table throws in
            try connection.transaction { tx in
                try tx.run("INSERT INTO \(table) VALUES (1)")
                #expect(throws: PostgresError.self) {
                    try tx.transaction { inner in
                        try inner.run("INSERT INTO \(table) VALUES (2)")
                        try inner.run("INSERT INTO \(table) VALUES (1)")  // unique violation
                    }
                }
                try tx.transaction { inner in try inner.run("INSERT INTO \(table) VALUES (3)") }
            }
            let ids = try connection.query("SELECT id FROM \(table) ORDER BY id").compactMap { $0.int("id") }
            #expect(ids == [1, 3])
        }
    }

    @Test func isolationLevel() throws {
        let connection = try TestServer.connect()
        let level = try connection.transaction(isolation: .serializable) { tx in
            try tx.queryFirst("SHOW transaction_isolation")?.text(0)
        }
        #expect(level == "serializable")
    }

    @Test func serializationFailureIsReported() throws {
        let first = try TestServer.connect()
        let second = try TestServer.connect()
        try withTable(first, "id int PRIMARY KEY, n int") { table throws in
            try first.run("INSERT INTO \(table) VALUES (1, 0)")
            let error = #expect(throws: PostgresError.self) {
                try first.transaction(isolation: .repeatableRead) { a in
                    _ = try a.query("SELECT n FROM \(table) WHERE id = 1")
                    try second.run("UPDATE \(table) SET n = n + 1 WHERE id = 1")  // commits on its own
                    try a.run("UPDATE \(table) SET n = n + 10 WHERE id = 1")
                }
            }
            #expect(error?.isSerializationFailure == true)
            #expect(try first.queryFirst("SELECT n FROM \(table)")?.int("n") == 1)
        }
    }

    @Test func deadlockIsReported() throws {
        let setup = try TestServer.connect()
        try withTable(setup, "id int PRIMARY KEY") { table throws in
            try setup.run("INSERT INTO \(table) VALUES (1), (2)")
            let errors = Collector<PostgresError>()
            let url = TestServer.url
            onThreads(2) { index in
                do {
                    let connection = try PostgresConnection(url: url)
                    try connection.transaction { tx in
                        let (first, second) = index == 0 ? (1, 2) : (2, 1)
                        try tx.run("SELECT * FROM \(table) WHERE id = $1 FOR UPDATE", [.int(Int64(first))])
                        try tx.run("SELECT pg_sleep(0.3)")
                        try tx.run("SELECT * FROM \(table) WHERE id = $1 FOR UPDATE", [.int(Int64(second))])
                    }
                } catch let error as PostgresError {
                    errors.append(error)
                } catch {}
            }
            #expect(errors.values.count == 1)
            #expect(errors.values.first?.isDeadlock == true)
        }
    }
}
