import Postgres
import Testing

/// `PostgresConnection.pipeline`: several statements, one round trip.
@Suite("Pipeline mode")
struct PipelineTests {
    @Test func returnsEveryStatementsRowsInOrder() throws {
        let connection = try TestDatabase.connect()
        let results = try connection.pipelineResults([
            ("SELECT $1::int8 + 1 AS n", [41]),
            ("SELECT generate_series(1, $1::int8) AS i", [3]),
            ("SELECT $1::text AS t, $2::bytea AS b", ["hé", .bytes([0, 255])]),
        ])
        #expect(results.count == 3)
        #expect(results[0].rows.first?.int("n") == 42)
        #expect(results[1].rows.compactMap { $0.int("i") } == [1, 2, 3])
        #expect(results[1].affectedRows == 3)
        #expect(results[2].rows.first?.text("t") == "hé")
        #expect(results[2].rows.first?.bytes("b") == [0, 255])
        #expect(try connection.pipeline([]).isEmpty)
    }

    @Test func statementsWithoutBeginAreOneImplicitTransaction() throws {
        let connection = try TestDatabase.connect()
        let table = "pv_pipe_\(UInt32.random(in: 0...UInt32.max))"
        try connection.execute("CREATE TABLE \(table) (id int8 PRIMARY KEY)")
        defer { try? connection.execute("DROP TABLE IF EXISTS \(table)") }
        let error = #expect(throws: PostgresError.self) {
            try connection.pipeline([
                ("INSERT INTO \(table) (id) VALUES ($1)", [1]),
                ("INSERT INTO \(table) (id) VALUES ($1)", [1]),
                ("INSERT INTO \(table) (id) VALUES ($1)", [2]),
            ])
        }
        #expect(error?.isUniqueViolation == true)
        #expect(error?.constraint == "\(table)_pkey")
        // All rolled back, and the connection is idle and usable.
        #expect(!connection.isInTransaction)
        #expect(try connection.queryFirst("SELECT COUNT(*) AS n FROM \(table)")?.int("n") == 0)
        let inserted = try connection.pipelineResults([
            ("INSERT INTO \(table) (id) VALUES ($1)", [1]), ("INSERT INTO \(table) (id) VALUES ($1)", [2]),
        ])
        #expect(inserted.map(\.affectedRows) == [1, 1])
    }

    @Test func anExplicitTransactionStaysOpenAfterTheSync() throws {
        let connection = try TestDatabase.connect()
        let results = try connection.pipeline([("BEGIN", []), ("SELECT txid_current() AS x", [])])
        #expect(results.count == 2)
        #expect(connection.isInTransaction)
        let again = try connection.queryFirst("SELECT txid_current() AS x")
        #expect(again?.int("x") == results[1].first?.int("x"))
        _ = try connection.pipeline([("COMMIT", [])])
        #expect(!connection.isInTransaction)
        // A failure inside an explicit transaction leaves it failed, awaiting ROLLBACK.
        #expect(throws: PostgresError.self) { try connection.pipeline([("BEGIN", []), ("SELECT 1/0", []), ("COMMIT", [])]) }
        #expect(connection.isInTransaction)
        try connection.execute("ROLLBACK")
        #expect(try connection.queryFirst("SELECT 1 AS one")?.int("one") == 1)
    }

    @Test func statementsArePreparedOncePerConnection() throws {
        let connection = try TestDatabase.connect()
        let batch: [(sql: String, params: [PostgresValue])] = [("SELECT $1::int8 AS a", [1]), ("SELECT $1::int8 AS a", [2]), ("SELECT $1::text AS b", ["x"])]
        _ = try connection.pipeline(batch)
        _ = try connection.pipeline(batch)
        // Two distinct statements (the repeated one once, across both pipelines), plus this query.
        let prepared = try connection.query("SELECT statement FROM pg_prepared_statements ORDER BY name")
        #expect(prepared.count == 3)
        // A syntax error in a new statement is reported and not cached.
        #expect(throws: PostgresError.self) { try connection.pipeline([("SELEC $1", [1])]) }
        #expect(try connection.query("SELECT name FROM pg_prepared_statements").count == 4)  // + this query
        #expect(try connection.pipeline([("SELECT $1::int8 AS a", [5])])[0].first?.int("a") == 5)
    }
}
