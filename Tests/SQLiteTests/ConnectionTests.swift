import Foundation
import SQLite
import Testing

@Suite("Connection")
struct ConnectionTests {
    let directory = TemporaryDirectory()

    func open() throws -> Connection {
        let connection = try Connection(path: directory.file("connection.db"))
        try connection.execute("CREATE TABLE v (x); CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL)")
        return connection
    }

    static let roundTripValues: [SQLiteValue] = [
        .null,
        .integer(0), .integer(Int64.min), .integer(Int64.max), .integer(-1),
        .real(3.141592653589793), .real(-1e-300), .real(Double.greatestFiniteMagnitude),
        .text(""), .text("plain"), .text("héllo wörld · 日本語 · 📱🇫🇷 · \u{200D}"),
        .blob([]), .blob([0]), .blob([0, 1, 0, 255, 0, 0]), .blob(Array(repeating: 0, count: 4096)),
    ]

    @Test("values round trip unchanged", arguments: roundTripValues)
    func roundTrip(_ value: SQLiteValue) throws {
        let connection = try open()
        try connection.run("INSERT INTO v (x) VALUES (?)", [value])
        let row = try #require(try connection.queryOne("SELECT x FROM v"))
        #expect(row[0] == value)
        #expect(row["x"] == value)
        let type = try connection.queryOne("SELECT typeof(x) FROM v")?.text(0)
        let expected = ["null", "integer", "real", "text", "blob"]
        switch value {
        case .null: #expect(type == expected[0])
        case .integer: #expect(type == expected[1])
        case .real: #expect(type == expected[2])
        case .text: #expect(type == expected[3])
        case .blob: #expect(type == expected[4])
        }
    }

    @Test func typedHelpersAndNames() throws {
        let connection = try open()
        let row = try #require(try connection.queryOne(
            "SELECT 42 AS Answer, 'text' AS t, x'00ff' AS b, 2.5 AS d, NULL AS n"))
        #expect(row.columnNames == ["Answer", "t", "b", "d", "n"])
        #expect(row.int("Answer") == 42)
        #expect(row.int("answer") == 42)  // case-insensitive like SQL
        #expect(row.text(1) == "text")
        #expect(row.blob("b") == [0, 255])
        #expect(row.double("d") == 2.5)
        #expect(row.double("Answer") == 42)
        #expect(row.int("t") == nil)
        #expect(row["n"].isNull)
        #expect(row["missing"] == .null)
        #expect(!row.hasColumn("missing"))
    }

    @Test func literalParameters() throws {
        let connection = try open()
        try connection.run("INSERT INTO v (x) VALUES (?), (?), (?), (?)", [1, "two", nil, 4.5])
        let values = try connection.query("SELECT x FROM v ORDER BY rowid").map { $0[0] }
        #expect(values == [.integer(1), .text("two"), .null, .real(4.5)])
    }

    @Test func syntaxErrorCarriesSQLAndMessage() throws {
        let connection = try open()
        let error = try #require(throws: SQLiteError.self) { try connection.query("SELEC 1") }
        #expect(error.code == 1)
        #expect(error.sql == "SELEC 1")
        #expect(error.message.contains("syntax error"))
        #expect(!error.isBusy && !error.isConstraint)
        #expect(error.description.contains("SELEC 1"))
    }

    @Test func constraintViolationIsConstraint() throws {
        let connection = try open()
        let insert = "INSERT INTO items (name) VALUES (?)"
        try connection.run(insert, ["alice"])
        let error = try #require(throws: SQLiteError.self) { try connection.run(insert, ["alice"]) }
        #expect(error.isConstraint)
        #expect(error.code == 19)
        #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error.message.contains("UNIQUE constraint failed: items.name"))
        #expect(error.sql == insert)
        // The cached statement is usable again after the failure.
        #expect(try connection.run(insert, ["bob"]) == 1)
    }

    @Test func foreignKeysAreEnforced() throws {
        let connection = try open()
        try connection.execute("CREATE TABLE child (item_id INTEGER NOT NULL REFERENCES items(id))")
        let error = try #require(throws: SQLiteError.self) {
            try connection.run("INSERT INTO child (item_id) VALUES (99)")
        }
        #expect(error.isConstraint)
        #expect(error.extendedCode == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
    }

    @Test func executeReportsErrors() throws {
        let connection = try open()
        let error = try #require(throws: SQLiteError.self) { try connection.execute("CREATE TABLE v (x)") }
        #expect(error.message.contains("already exists"))
        #expect(error.sql == "CREATE TABLE v (x)")
    }

    @Test func misuseIsReported() throws {
        let connection = try open()
        let countError = try #require(throws: SQLiteError.self) { try connection.run("INSERT INTO v VALUES (?)") }
        #expect(countError.code == 25)  // SQLITE_RANGE
        let multi = try #require(throws: SQLiteError.self) { try connection.run("SELECT 1; SELECT 2") }
        #expect(multi.code == 21)  // SQLITE_MISUSE
        #expect(try connection.queryOne("SELECT 1 -- trailing comment\n")?.int(0) == 1)
        #expect(throws: SQLiteError.self) { try connection.run("   ") }
    }

    @Test func statementCacheIsReused() throws {
        let connection = try open()
        for index in 0..<5_000 {
            try connection.run("INSERT INTO v (x) VALUES (?)", [.integer(Int64(index))])
        }
        #expect(connection.cachedStatementCount == 1)
        let sum = try connection.queryOne("SELECT SUM(x), COUNT(*) FROM v")
        let expectedSum: Int64 = 4_999 * 5_000 / 2
        #expect(sum?.int(0) == expectedSum)
        #expect(sum?.int(1) == 5_000)
        #expect(connection.cachedStatementCount == 2)
        // Dynamic SQL beyond the cache limit still works (the cache is emptied).
        for index in 0..<600 {
            #expect(try connection.queryOne("SELECT \(index)")?.int(0) == Int64(index))
        }
        #expect(connection.cachedStatementCount <= 256)
    }

    @Test func returningRowsAndChanges() throws {
        let connection = try open()
        let rows = try connection.query("INSERT INTO items (name) VALUES (?), (?) RETURNING id, name", ["a", "b"])
        #expect(rows.map { $0.text("name") } == ["a", "b"])
        #expect(connection.lastInsertRowID == rows[1].int("id"))
        // queryOne on a writing statement still runs it to completion.
        let first = try connection.queryOne("INSERT INTO items (name) VALUES (?), (?) RETURNING name", ["c", "d"])
        #expect(first?.text(0) == "c")
        #expect(try connection.queryOne("SELECT COUNT(*) FROM items")?.int(0) == 4)
        // run steps RETURNING rows to the end and reports the changes.
        #expect(try connection.run("UPDATE items SET name = name || '!' RETURNING id") == 4)
        // The same cached RETURNING statement works again.
        let again = try connection.query("INSERT INTO items (name) VALUES (?), (?) RETURNING id, name", ["e", "f"])
        #expect(again.count == 2)
        #expect(!connection.isInTransaction)
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        let writer = try open()
        try writer.run("INSERT INTO v (x) VALUES (1)")
        let reader = try Connection(path: directory.file("connection.db"), readOnly: true)
        #expect(try reader.queryOne("SELECT x FROM v")?.int(0) == 1)
        let error = try #require(throws: SQLiteError.self) { try reader.run("INSERT INTO v (x) VALUES (2)") }
        #expect(error.code == 8)  // SQLITE_READONLY
    }

    @Test func openingAMissingReadOnlyFileFails() throws {
        let error = try #require(throws: SQLiteError.self) {
            try Connection(path: directory.file("missing.db"), readOnly: true)
        }
        #expect(error.code == 14)  // SQLITE_CANTOPEN
    }

    @Test func cachedStatementsShareColumnsUntilTheSchemaChanges() throws {
        let connection = try open()
        try connection.run("INSERT INTO items (name) VALUES ('a'), ('b')")
        let first = try connection.query("SELECT * FROM items ORDER BY id")
        let again = try connection.query("SELECT * FROM items ORDER BY id")
        #expect(first.map(\.columnNames) == [["id", "name"], ["id", "name"]])
        #expect(again[1].text("NAME") == "b")
        // Same column count, new name: SQLite re-prepares the cached statement.
        try connection.execute("ALTER TABLE items RENAME COLUMN name TO label")
        let renamed = try #require(try connection.queryOne("SELECT * FROM items ORDER BY id"))
        #expect(renamed.columnNames == ["id", "label"])
        #expect(renamed.text("label") == "a" && !renamed.hasColumn("name"))
        try connection.execute("ALTER TABLE items ADD COLUMN extra INTEGER DEFAULT 7")
        let widened = try connection.query("SELECT * FROM items ORDER BY id")
        #expect(widened.map(\.columnNames) == [["id", "label", "extra"], ["id", "label", "extra"]])
        #expect(widened[0].int("extra") == 7)
    }
}
