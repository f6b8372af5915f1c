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
}
