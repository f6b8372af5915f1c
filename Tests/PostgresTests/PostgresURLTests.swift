import Foundation
import Postgres
import Testing

/// URL parsing through libpq's `PQconninfoParse`, without a server.
@Suite("PostgresURL")
struct PostgresURLTests {
    @Test func parsesEveryPart() throws {
        let url = try PostgresURL(
            "postgres://app%40prod:p%40ss%3Aw%2Frd%25@db.example.com:6543/phone%20verify?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&application_name=api&connect_timeout=3&options=-c%20statement_timeout%3D5s")
        #expect(url.user == "app@prod")
        #expect(url.password == "p@ss:w/rd%")
        #expect(url.host == "db.example.com")
        #expect(url.port == "6543")
        #expect(url.database == "phone verify")
        #expect(url.option("sslmode") == "verify-full")
        #expect(url.option("sslrootcert") == "/etc/ca.pem")
        #expect(url.option("application_name") == "api")
        #expect(url.option("connect_timeout") == "3")
        #expect(url.option("options") == "-c statement_timeout=5s")
    }

    @Test func becomesLibpqsKeywordValuePairsWithUTF8Last() throws {
        let url = try PostgresURL("postgresql://u:secret@127.0.0.1:55432/db?sslmode=disable&sslcert=c&sslkey=k")
        let pairs = Set(url.connectionParameters.map { "\($0.keyword)=\($0.value)" })
        #expect(pairs == ["host=127.0.0.1", "port=55432", "user=u", "password=secret", "dbname=db",
                          "sslmode=disable", "sslcert=c", "sslkey=k", "client_encoding=UTF8"])
        #expect(url.connectionParameters.last?.keyword == "client_encoding")
    }

    @Test func acceptsWhatLibpqAccepts() throws {
        // Failover across hosts, each with its port.
        let failover = try PostgresURL("postgres://u@h1:5432,h2:5433/db?target_session_attrs=read-write")
        #expect(failover.host == "h1,h2")
        #expect(failover.port == "5432,5433")
        #expect(failover.option("target_session_attrs") == "read-write")
        // A password file, a service name, a host given as a query parameter, an address.
        let passfile = try PostgresURL("postgres://u@h/db?passfile=%2Fetc%2Fphone-verify%2Fpgpass")
        #expect(passfile.option("passfile") == "/etc/phone-verify/pgpass")
        let service = try PostgresURL("postgresql:///?service=phone_verify")
        #expect(service.option("service") == "phone_verify")
        let queryHost = try PostgresURL("postgres:///db?host=%2Fvar%2Frun%2Fpostgresql&hostaddr=127.0.0.1&port=6000")
        #expect(queryHost.host == "/var/run/postgresql")
        #expect(queryHost.option("hostaddr") == "127.0.0.1")
        #expect(queryHost.port == "6000")
    }

    @Test func valuesThatLookLikeConnectionStringsStayValues() throws {
        // A database name with spaces and '=' must not be re-parsed as "key=value" pairs.
        let url = try PostgresURL("postgres://u@h/db%20host%3Devil%20password%3Dx")
        #expect(url.database == "db host=evil password=x")
        #expect(url.connectionParameters.filter { $0.keyword == "host" }.map(\.value) == ["h"])
        #expect(url.password == nil)
    }

    @Test func minimalAndIPv6Forms() throws {
        let bare = try PostgresURL("postgres://")
        #expect(bare.user == nil && bare.host == nil && bare.port == nil && bare.database == nil)
        #expect(bare.connectionParameters.map(\.keyword) == ["client_encoding"])

        let v6 = try PostgresURL("postgres://[::1]:5433/x")
        #expect(v6.host == "::1")
        #expect(v6.port == "5433")

        let socket = try PostgresURL("postgres://%2Ftmp%2Fphone-verify-pg%2Frun/x")
        #expect(socket.host == "/tmp/phone-verify-pg/run")

        let userOnly = try PostgresURL("postgres://alice@localhost")
        #expect(userOnly.user == "alice" && userOnly.password == nil && userOnly.database == nil)
    }

    @Test(arguments: [
        ("mysql://u@h/db", "postgres://"),
        ("host=h dbname=db", "postgres://"),
        ("POSTGRES://u@h/db", "postgres://"),
        ("postgres://u@h:0/db", "1 to 65535"),
        ("postgres://u@h:70000/db", "1 to 65535"),
        ("postgres://u@h1:5432,h2:54x/db", "1 to 65535"),
        ("postgres://u:%zz@h/db", "percent"),
        ("postgres://u@h/d%00b", "%00"),
        ("postgres://u@h/db?sslmode", "sslmode"),
        ("postgres://u@h/db?sslmod=require", "sslmod"),
        ("postgres://u@[::1/db", "IPv6"),
        ("postgres://u@h/db?client_encoding=LATIN1", "client_encoding"),
    ])
    func rejectsMalformedURLsWithAClearMessage(_ text: String, _ named: String) {
        let error = #expect(throws: PostgresError.self) { try PostgresURL(text) }
        #expect(error?.kind == .usage)
        #expect(error?.message.hasPrefix("invalid PostgreSQL URL: ") == true)
        #expect(error?.message.contains(named) == true, "\(error?.message ?? "no error")")
    }

    @Test func descriptionHidesEverySecret() throws {
        let url = try PostgresURL("postgres://u:hunter2@h:1/db?application_name=a%20b&sslpassword=keypass")
        #expect(url.description == "postgres://u:***@h:1/db?application_name=a%20b&sslpassword=***")
        let query = try PostgresURL("postgres://u@h/db?password=hunter2")
        #expect(query.description == "postgres://u:***@h/db")
        let failover = try PostgresURL("postgres://u:hunter2@h1:5432,h2:5433/db?passfile=%2Fsecrets%2Fpgpass")
        #expect(failover.description == "postgres://u:***@h1:5432,h2:5433/db?passfile=%2Fsecrets%2Fpgpass")
        #expect(try PostgresURL(failover.description.replacingOccurrences(of: "***", with: "x")).host == "h1,h2")
    }

    @Test(arguments: ["postgres://u:hunter2@h:x/db", "postgres://u:hunter2%zz@h/db",
                      "postgres://u@h/db?password=hunter2%zz", "postgres://u:hunter2@h/db?bogus=1"])
    func errorsNeverRepeatThePassword(_ text: String) {
        let error = #expect(throws: PostgresError.self) { try PostgresURL(text) }
        #expect(error != nil)
        #expect(error?.description.contains("hunter2") == false, "\(error?.description ?? "")")
    }

    @Test func unreachableServerIsAConnectionFailure() {
        // Port 1 on loopback: nothing listens there, the refusal is immediate.
        let error = #expect(throws: PostgresError.self) {
            try PostgresConnection(url: "postgres://postgres@127.0.0.1:1/x?connect_timeout=2")
        }
        #expect(error?.isConnectionFailure == true)
        #expect(error?.kind == .connection)
    }
}
