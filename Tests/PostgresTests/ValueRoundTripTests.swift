import Postgres
import Testing

/// Values sent as parameters and read back, by PostgreSQL type.
@Suite("Value round trips")
struct ValueRoundTripTests {
    static let values: [PostgresValue] = [
        .int(0), .int(Int64.min), .int(Int64.max), .int(-1),
        .double(0.1), .double(-2.5e-300), .double(1.7976931348623157e308), .double(.infinity),
        .double(-.infinity), .double(.pi), .double(.leastNonzeroMagnitude),
        .text(""), .text("héllo wörld — 日本語 🇸🇪 👩‍👩‍👧"), .text("'); DROP TABLE x; --"), .text("back\\slash \"quotes\" \t\n"),
        .bytes([]), .bytes([0]), .bytes([0, 1, 0, 255, 0]), .bytes((0...255).map { UInt8($0) }),
        .bool(true), .bool(false),
        .null,
    ]

    /// Each value through a parameter of its declared type and back (`SELECT $1`).
    @Test(arguments: values)
    func selectParameter(_ value: PostgresValue) throws {
        let connection = try TestServer.connect()
        let rows = try connection.query("SELECT $1 AS v", [value])
        #expect(rows.count == 1)
        #expect(rows.first?[column: "v"] == value)
    }

    /// Each kind stored in a typed column and read back.
    @Test func tableColumnsOfEveryType() throws {
        let connection = try TestServer.connect()
        try withTable(connection, """
            id int4 PRIMARY KEY, small int2, big int8, real4 float4, real8 float8, flag bool,
            body text, name varchar(40), data bytea, amount numeric(12,2), stamp timestamptz
            """) { table throws in
            try connection.run("""
                INSERT INTO \(table) (id, small, big, real4, real8, flag, body, name, data, amount, stamp)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                """, [1, 7, .int(Int64.min), 1.5, 0.1, true, "ünïcödé ✓", "varchar", .bytes([0, 0, 7, 0]),
                      "12345.67", "2024-01-02T03:04:05Z"])
            try connection.run("INSERT INTO \(table) (id) VALUES ($1)", [2])
            let rows = try connection.query("SELECT * FROM \(table) ORDER BY id")
            #expect(rows.count == 2)
            let row = try #require(rows.first)
            #expect(row.int("id") == 1)
            #expect(row.int("small") == 7)
            #expect(row.int("big") == Int64.min)
            #expect(row.double("real4") == 1.5)
            #expect(row.double("real8") == 0.1)
            #expect(row.bool("flag") == true)
            #expect(row.text("body") == "ünïcödé ✓")
            #expect(row.text("name") == "varchar")
            #expect(row.bytes("data") == [0, 0, 7, 0])
            #expect(row["amount"] == .text("12345.67"))
            #expect(row.text("stamp")?.hasPrefix("2024-01-02") == true)
            #expect(row.columnNames.first == "id")
            let empty = rows[1]
            #expect(empty.values.dropFirst().allSatisfy { $0 == .null })
            #expect(empty["small"] == .null && empty.int("small") == nil)
        }
    }

    @Test func nanAndNegativeZero() throws {
        let connection = try TestServer.connect()
        let row = try #require(try connection.queryFirst("SELECT $1 AS nan, $2 AS zero", [.double(.nan), .double(-0.0)]))
        #expect(row.double("nan")?.isNaN == true)
        #expect(row.double("zero") == 0 && row.double("zero")?.sign == .minus)
    }

    @Test func emptyTextIsNotNull() throws {
        let connection = try TestServer.connect()
        let row = try #require(try connection.queryFirst("SELECT $1::text IS NULL AS a, $2::text IS NULL AS b", ["", nil]))
        #expect(row.bool("a") == false)
        #expect(row.bool("b") == true)
    }

    @Test func textInfersItsTypeFromContext() throws {
        let connection = try TestServer.connect()
        let row = try #require(try connection.queryFirst(
            "SELECT $1::uuid AS id, $2 + 1 AS n, $3::jsonb ->> 'k' AS j",
            ["6c1e3c0a-7f42-4b8e-9f3a-0d9c1f1b2a3c", "41", #"{"k": "v"}"#]))
        #expect(row.text("id") == "6c1e3c0a-7f42-4b8e-9f3a-0d9c1f1b2a3c")
        #expect(row.int("n") == 42)
        #expect(row.text("j") == "v")
    }

    @Test func textWithNulIsRejectedBeforeReachingTheServer() throws {
        let connection = try TestServer.connect()
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT $1", ["a\u{0}b"]) }
        #expect(error?.kind == .usage)
        #expect(try connection.queryFirst("SELECT 1 AS one")?.int("one") == 1)
    }

    @Test func manyRowsAndColumnLookup() throws {
        let connection = try TestServer.connect()
        let rows = try connection.query("SELECT g AS \"Number\", g % 2 = 0 AS even FROM generate_series(1, $1) g", [1000])
        #expect(rows.count == 1000)
        #expect(rows[999].int("Number") == 1000)
        #expect(rows[999].int("number") == 1000)  // case-insensitive fallback
        #expect(rows[999].bool(1) == true)
        #expect(rows[0]["missing"] == .null && !rows[0].hasColumn("missing"))
        #expect(try connection.query("SELECT 1 WHERE false").isEmpty)
    }
}
