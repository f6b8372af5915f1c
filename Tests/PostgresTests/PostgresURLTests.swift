import Postgres
import Testing

/// URL parsing, without a server.
@Suite("PostgresURL")
struct PostgresURLTests {
    @Test func parsesEveryPart() throws {
        let url = try PostgresURL(
            "postgres://app%40prod:p%40ss%3Aw%2Frd%25@db.example.com:6543/phone%20verify?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&application_name=api&connect_timeout=3&options=-c%20statement_timeout%3D5s")
        #expect(url.user == "app@prod")
        #expect(url.password == "p@ss:w/rd%")
        #expect(url.host == "db.example.com")
        #expect(url.port == 6543)
        #expect(url.database == "phone verify")
        #expect(url.option("sslmode") == "verify-full")
        #expect(url.option("sslrootcert") == "/etc/ca.pem")
        #expect(url.option("application_name") == "api")
        #expect(url.option("connect_timeout") == "3")
        #expect(url.option("options") == "-c statement_timeout=5s")
    }

    @Test func becomesSeparateKeywordValuePairs() throws {
        let url = try PostgresURL("postgresql://u:secret@127.0.0.1:55432/db?sslmode=disable&sslcert=c&sslkey=k")
        let pairs = url.connectionParameters.map { "\($0.keyword)=\($0.value)" }
        #expect(pairs == ["host=127.0.0.1", "port=55432", "user=u", "password=secret", "dbname=db",
                          "sslmode=disable", "sslcert=c", "sslkey=k", "client_encoding=UTF8"])
    }

    @Test func valuesThatLookLikeConnectionStringsStayValues() throws {
        // A database name with spaces and '=' must not be re-parsed as "key=value" pairs.
        let url = try PostgresURL("postgres://u@h/db%20host%3Devil%20password%3Dx")
        #expect(url.database == "db host=evil password=x")
        #expect(url.connectionParameters.filter { $0.keyword == "host" }.map(\.value) == ["h"])
    }

    @Test func minimalAndIPv6Forms() throws {
        let bare = try PostgresURL("postgres://")
        #expect(bare.user == nil && bare.host == nil && bare.port == nil && bare.database == nil)
        #expect(bare.connectionParameters.map(\.keyword) == ["client_encoding"])

        let v6 = try PostgresURL("postgres://[::1]:5433/x")
        #expect(v6.host == "::1")
        #expect(v6.port == 5433)

        let socket = try PostgresURL("postgres://%2Ftmp%2Fphone-verify-pg%2Frun/x")
        #expect(socket.host == "/tmp/phone-verify-pg/run")

        let userOnly = try PostgresURL("postgres://alice@localhost")
        #expect(userOnly.user == "alice" && userOnly.password == nil && userOnly.database == nil)

        let emptyPassword = try PostgresURL("postgres://alice:@localhost/db")
        #expect(emptyPassword.password == "")
    }

    @Test(arguments: [
        "mysql://u@h/db",
        "postgres//u@h/db",
        "postgres://u@h:0/db",
        "postgres://u@h:70000/db",
        "postgres://u@h:54x/db",
        "postgres://u:%zz@h/db",
        "postgres://u:%4@h/db",
        "postgres://u@h/d%00b",
        "postgres://u@h/db?sslmode",
        "postgres://u@h/db?sslmod=require",
        "postgres://u@h/db?host=other",
        "postgres://u@[::1/db",
        "postgres://u@h1,h2/db",
    ])
    func rejectsMalformedURLs(_ text: String) {
        #expect(throws: PostgresError.self) { try PostgresURL(text) }
    }

    @Test func descriptionHidesThePassword() throws {
        let url = try PostgresURL("postgres://u:hunter2@h:1/db?application_name=a%20b")
        #expect(url.description == "postgres://u:***@h:1/db?application_name=a%20b")
        #expect(!url.description.contains("hunter2"))
        let error = #expect(throws: PostgresError.self) { try PostgresURL("postgres://u:hunter2@h:x/db") }
        #expect(error?.description.contains("hunter2") == false)
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
