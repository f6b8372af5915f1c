import Foundation
import Postgres
import Testing

/// The PostgreSQL server the tests run against (started by `scripts/postgres start`).
enum TestServer {
    static let url = ProcessInfo.processInfo.environment["PHONE_VERIFY_TEST_POSTGRES_URL"]
        ?? "postgres://postgres@127.0.0.1:55432/phone_verify_test"

    /// A new connection; when the server is unreachable this throws an error
    /// that fails the test (never skips it) and says how to start the server.
    static func connect(url: String = url) throws -> PostgresConnection {
        do {
            return try PostgresConnection(url: url)
        } catch let error as PostgresError where error.isConnectionFailure {
            throw ServerUnreachable(url: url, underlying: error)
        }
    }

    /// A pool on the test server; fails like ``connect(url:)`` when unreachable.
    static func pool(size: Int, acquireTimeoutSeconds: Double? = nil, applicationName: String? = nil) throws -> PostgresPool {
        var poolURL = url
        if let applicationName {
            poolURL += (poolURL.contains("?") ? "&" : "?") + "application_name=\(applicationName)"
        }
        let pool = try PostgresPool(url: poolURL, size: size, acquireTimeoutSeconds: acquireTimeoutSeconds)
        do {
            try pool.withConnection { _ in }
        } catch let error as PostgresError where error.isConnectionFailure {
            throw ServerUnreachable(url: url, underlying: error)
        }
        return pool
    }
}

/// The test database is down: fail with instructions rather than skip.
struct ServerUnreachable: Error, CustomStringConvertible {
    let url: String
    let underlying: PostgresError

    var description: String {
        "PostgreSQL test server unreachable at \(url) (\(underlying.message)). "
            + "Start it with `scripts/postgres start` (or set PHONE_VERIFY_TEST_POSTGRES_URL)."
    }
}

/// A table name no other test (or concurrent test run) uses.
func uniqueName(_ prefix: String) -> String {
    "pv_\(prefix)_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
}

/// Creates a table with a unique name and the given column list, runs `body`
/// with its name, and drops it afterwards.
func withTable<T>(_ connection: PostgresConnection, _ columns: String,
                  _ body: (String) throws -> T) throws -> T {
    let table = uniqueName("t")
    try connection.execute("CREATE TABLE \(table) (\(columns))")
    defer { try? connection.execute("DROP TABLE IF EXISTS \(table)") }
    return try body(table)
}


