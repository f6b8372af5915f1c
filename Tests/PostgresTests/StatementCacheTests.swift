import Postgres
import Testing

/// Prepared statements are cached per connection, and values never become SQL.
@Suite("Prepared statements and parameters")
struct StatementCacheTests {
    /// Statements this session prepared through the protocol (not SQL PREPARE).
    func prepared(_ connection: PostgresConnection) throws -> [String: String] {
        var byName: [String: String] = [:]
        for row in try connection.query("SELECT name, statement FROM pg_prepared_statements WHERE NOT from_sql") {
            byName[row.text("name") ?? ""] = row.text("statement")
        }
        return byName
    }

    @Test func oneStatementServesManyCalls() throws {
        let connection = try TestServer.connect()
        let sql = "SELECT $1::int8 * 2 AS doubled"
        for n in 0..<500 {
            #expect(try connection.queryFirst(sql, [.int(Int64(n))])?.int("doubled") == Int64(n * 2))
        }
        let statements = try prepared(connection)
        #expect(statements.values.filter { $0 == sql }.count == 1)
        #expect(statements.keys.allSatisfy { $0.hasPrefix("s") })
        let calls = try connection.queryFirst(
            "SELECT generic_plans + custom_plans AS calls FROM pg_prepared_statements WHERE statement = $1", [.text(sql)])
        #expect(calls?.int("calls") == 500)
    }

    @Test func differentParameterTypesGetTheirOwnStatement() throws {
        let connection = try TestServer.connect()
        let sql = "SELECT $1 AS v"
        #expect(try connection.queryFirst(sql, [.bytes([0, 1])])?.bytes("v") == [0, 1])
        #expect(try connection.queryFirst(sql, [.int(7)])?.int("v") == 7)
        #expect(try connection.queryFirst(sql, [.bytes([2])])?.bytes("v") == [2])
        #expect(try prepared(connection).values.filter { $0 == sql }.count == 2)
    }

    @Test func resetEmptiesTheCache() throws {
        let connection = try TestServer.connect()
        _ = try connection.query("SELECT $1::text AS v", ["a"])
        let before = connection.processID
        try connection.reset()
        #expect(connection.processID != before)
        // Only the statement listing pg_prepared_statements itself (prepared after the reset) is there.
        #expect(try !prepared(connection).values.contains("SELECT $1::text AS v"))
        #expect(try prepared(connection).count == 1)
        #expect(try connection.queryFirst("SELECT $1::text AS v", ["b"])?.text("v") == "b")
    }

    @Test func survivesDeallocateAll() throws {
        let connection = try TestServer.connect()
        let sql = "SELECT $1::int8 + 1 AS n"
        #expect(try connection.queryFirst(sql, [1])?.int("n") == 2)
        try connection.execute("DEALLOCATE ALL")
        #expect(try connection.queryFirst(sql, [2])?.int("n") == 3)
    }

    @Test func survivesATableChangingShape() throws {
        let connection = try TestServer.connect()
        try withTable(connection, "id int") { table throws in
            try connection.run("INSERT INTO \(table) VALUES (1)")
            let sql = "SELECT * FROM \(table) WHERE id = $1"
            #expect(try connection.query(sql, [1]).first?.count == 1)
            try connection.execute("ALTER TABLE \(table) ADD COLUMN note text DEFAULT 'x'")
            let row = try connection.queryFirst(sql, [1])
            #expect(row?.text("note") == "x")
        }
    }

    @Test(arguments: ["'); DROP TABLE x; --", "\"; DROP TABLE x; --", "$1", "1 OR 1=1", "\\'; --"])
    func parametersAreNeverInterpolated(_ hostile: String) throws {
        let connection = try TestServer.connect()
        try withTable(connection, "id int PRIMARY KEY, body text") { table throws in
            try connection.run("INSERT INTO \(table) VALUES ($1, $2)", [1, .text(hostile)])
            #expect(try connection.queryFirst("SELECT body FROM \(table) WHERE id = $1", [1])?.text("body") == hostile)
            #expect(try connection.query("SELECT id FROM \(table) WHERE body = $1", [.text(hostile)]).count == 1)
            #expect(try connection.query("SELECT id FROM \(table) WHERE body = $1", ["1 OR 1=1 --x"]).isEmpty)
            #expect(try connection.queryFirst("SELECT $1 AS v", [.text(hostile)])?.text("v") == hostile)
            #expect(try connection.queryFirst("SELECT to_regclass($1) IS NOT NULL AS exists", [.text(table)])?
                .bool("exists") == true)
        }
    }

    @Test func runReportsAffectedRows() throws {
        let connection = try TestServer.connect()
        try withTable(connection, "id int PRIMARY KEY, used_at bigint") { table throws in
            #expect(try connection.run("INSERT INTO \(table) (id) SELECT generate_series(1, 5)") == 5)
            let consume = "UPDATE \(table) SET used_at = $1 WHERE id = $2 AND used_at IS NULL"
            #expect(try connection.run(consume, [100, 3]) == 1)
            #expect(try connection.run(consume, [200, 3]) == 0)
            #expect(try connection.run("DELETE FROM \(table) WHERE id > $1", [3]) == 2)
        }
    }
}
