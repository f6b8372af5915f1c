import Foundation
import Postgres
@testable import PostgresStore
import Testing

/// Every write body relies on READ COMMITTED, whatever the database or the URL defaults to.
@Suite struct IsolationTests {
    @Test func sessionsAreReadCommittedWhateverTheDefault() throws {
        let url = TestDatabase.url + (TestDatabase.url.contains("?") ? "&" : "?")
            + "options=-c%20default_transaction_isolation%3Dserializable"
        let store = try PostgresStore(url: url, poolSize: 1, schema: TestDatabase.freshSchema())
        let level = try store.pool.withConnection { try $0.queryFirst("SHOW transaction_isolation")?.text("transaction_isolation") }
        #expect(level == "read committed")
    }

    /// A silently dropped path to the database fails in seconds, not the kernel's ~15 minutes:
    /// connections carry libpq's keepalive and user-timeout options (libpq refuses a connection
    /// with an option it does not know, so connecting proves they are understood); the URL's own
    /// values win.
    @Test func connectionsUseTCPKeepalivesAndAUserTimeout() throws {
        let store = try PostgresStore(url: TestDatabase.url, poolSize: 1, schema: TestDatabase.freshSchema())
        #expect(try store.pool.withConnection { try $0.queryFirst("SELECT 1 AS one")?.int("one") } == 1)
        #expect(["keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout"]
            .map { store.pool.url.option($0) } == ["1", "30", "10", "3", "30000"])
        let url = TestDatabase.url + (TestDatabase.url.contains("?") ? "&" : "?") + "tcp_user_timeout=5000"
        let custom = try PostgresStore(url: url, poolSize: 1, schema: TestDatabase.freshSchema())
        #expect(custom.pool.url.option("tcp_user_timeout") == "5000")
    }
}
