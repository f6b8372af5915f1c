import Foundation
import Postgres
import Testing

/// What libpq's URL handling buys, against the test server: failover across hosts, a password
/// file, a service file.
@Suite("PostgresURL against a server")
struct PostgresURLConnectionTests {
    let server: PostgresURL

    init() throws {
        server = try PostgresURL(TestServer.url)
        _ = try TestServer.connect()  // fails with instructions when the server is down
    }

    private var host: String { server.host ?? "127.0.0.1" }
    private var port: String { server.port ?? "5432" }
    private var user: String { server.user ?? "postgres" }
    private var database: String { server.database ?? "postgres" }

    @Test func failsOverToTheNextHost() throws {
        // Nothing listens on port 1: libpq moves on to the second host, the real server.
        let connection = try PostgresConnection(
            url: "postgres://\(user)@127.0.0.1:1,\(host):\(port)/\(database)?connect_timeout=2")
        #expect(connection.server?.port == port)
        #expect(try connection.query("SELECT 1::int8 AS one").first?["one"] == .int(1))
    }

    @Test func usesThePasswordFileItIsGiven() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID())")
        try "\(host):\(port):*:\(user):not-needed-with-trust\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        defer { try? FileManager.default.removeItem(at: file) }
        let encoded = file.path.replacingOccurrences(of: "/", with: "%2F")
        let connection = try PostgresConnection(url: "postgres://\(user)@\(host):\(port)/\(database)?passfile=\(encoded)")
        #expect(connection.effectiveOption("passfile") == file.path)
        #expect(connection.effectiveOption("password") == nil)  // secrets never come back out
    }

    @Test func readsAServiceFromTheServiceFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pg_service-\(UUID()).conf")
        try "[phone_verify_url_test]\nhost=\(host)\nport=\(port)\nuser=\(user)\ndbname=\(database)\n"
            .write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        // libpq 15 finds the file only through PGSERVICEFILE; no other test names a service.
        setenv("PGSERVICEFILE", file.path, 1)
        let connection = try PostgresConnection(url: "postgresql:///?service=phone_verify_url_test")
        #expect(connection.server?.port == port)
        #expect(connection.server?.database == database)
        let unknown = #expect(throws: PostgresError.self) {
            try PostgresConnection(url: "postgresql:///?service=no_such_service")
        }
        #expect(unknown?.message.contains("no_such_service") == true)
    }
}
