import Postgres
import Testing

/// Server errors carry their SQLSTATE, and the connection stays usable.
@Suite("Errors")
struct ErrorTests {
    @Test func syntaxError() throws {
        let connection = try TestServer.connect()
        let error = #expect(throws: PostgresError.self) { try connection.query("SELEC 1") }
        #expect(error?.sqlState == "42601")
        #expect(error?.kind == .server)
        #expect(error?.sql == "SELEC 1")
        #expect(error?.description.contains("42601") == true)
        #expect(error?.isConnectionFailure == false)
        #expect(try connection.queryFirst("SELECT 2 AS two")?.int("two") == 2)
    }

    @Test func syntaxErrorInAScript() throws {
        let connection = try TestServer.connect()
        let error = #expect(throws: PostgresError.self) { try connection.execute("SELECT 1; SELEC 2;") }
        #expect(error?.sqlState == "42601")
    }

    @Test func uniqueViolation() throws {
        let connection = try TestServer.connect()
        try withTable(connection, "id int PRIMARY KEY, email text UNIQUE") { table throws in
            try connection.run("INSERT INTO \(table) VALUES ($1, $2)", [1, "a@example.com"])
            let error = #expect(throws: PostgresError.self) {
                try connection.run("INSERT INTO \(table) VALUES ($1, $2)", [2, "a@example.com"])
            }
            #expect(error?.sqlState == "23505")
            #expect(error?.isUniqueViolation == true)
            #expect(error?.isSerializationFailure == false && error?.isDeadlock == false)
            #expect(error?.detail?.contains("a@example.com") == true)
            #expect(try connection.queryFirst("SELECT count(*) AS n FROM \(table)")?.int("n") == 1)
        }
    }

    @Test func undefinedTableAndWrongTypes() throws {
        let connection = try TestServer.connect()
        let missing = #expect(throws: PostgresError.self) { try connection.query("SELECT * FROM pv_no_such_table") }
        #expect(missing?.sqlState == "42P01")
        let badInt = #expect(throws: PostgresError.self) { try connection.query("SELECT $1::int4", ["twelve"]) }
        #expect(badInt?.sqlState == "22P02")
        let overflow = #expect(throws: PostgresError.self) { try connection.query("SELECT $1::int4", [.int(Int64.max)]) }
        #expect(overflow?.sqlState == "22003")
    }

    @Test func wrongParameterCountKeepsTheConnection() throws {
        let connection = try TestServer.connect()
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT $1::int8 + $2::int8", [1]) }
        #expect(error?.sqlState != nil)
        #expect(error?.isConnectionFailure == false)
        #expect(connection.isHealthy)
        #expect(try connection.queryFirst("SELECT $1::int8 + $2::int8 AS s", [1, 2])?.int("s") == 3)
    }

    @Test func closedConnectionThrowsUsageError() throws {
        let connection = try TestServer.connect()
        connection.close()
        #expect(!connection.isHealthy)
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }
        #expect(error?.kind == .usage)
    }

    @Test func terminatedBackendIsAConnectionFailure() throws {
        let victim = try TestServer.connect()
        let killer = try TestServer.connect()
        #expect(try killer.queryFirst("SELECT pg_terminate_backend($1::int4, 5000) AS ok",
                                      [.int(Int64(victim.processID))])?.bool("ok") == true)
        #expect(!victim.isHealthy)
        let error = #expect(throws: PostgresError.self) { try victim.query("SELECT 1") }
        #expect(error?.isConnectionFailure == true)
        try victim.reset()
        #expect(try victim.queryFirst("SELECT 1 AS one")?.int("one") == 1)
    }

    @Test func copyIsRefusedAndTheConnectionSurvives() throws {
        let connection = try TestServer.connect()
        try withTable(connection, "id int") { table throws in
            #expect(throws: PostgresError.self) { try connection.execute("COPY \(table) FROM STDIN") }
            #expect(throws: PostgresError.self) { try connection.execute("COPY (SELECT 1) TO STDOUT") }
            #expect(try connection.queryFirst("SELECT 3 AS three")?.int("three") == 3)
        }
    }

    /// The server ends the session while a pipeline's last statement runs: the error arrives
    /// before the socket closes, the pipeline is out of step and the connection is dropped, and
    /// nothing touches the freed handle afterwards (run under MALLOC_PERTURB_=165 it crashed).
    @Test func aSessionEndedMidPipelineIsDroppedCleanly() throws {
        for _ in 0..<5 {
            let connection = try TestServer.connect()
            let error = #expect(throws: PostgresError.self) {
                try connection.pipeline([("SELECT 1", []), ("SELECT pg_terminate_backend(pg_backend_pid())", [])])
            }
            #expect(error?.isConnectionFailure == true)
            #expect(!connection.isHealthy)
        }
    }

    @Test func sessionEndingTimeoutsAreConnectionFailures() {
        for state in ["25P03", "57P05"] {
            #expect(PostgresError(kind: .server, sqlState: state, message: "terminating connection").isConnectionFailure)
        }
    }
}
