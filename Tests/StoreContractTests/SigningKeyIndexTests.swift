import Foundation
import SQLite
@testable import SQLiteStore
import Testing
import VerifyCore

/// At most one active signing key in SQLite, as in PostgreSQL (`MigrationAndPurgeTests`).
@Suite struct SigningKeyIndexTests {
    private func path() -> String { NSTemporaryDirectory() + "pv-keys-\(UUID().uuidString)/test.db" }

    @Test func aSecondActiveKeyIsRefusedByTheIndex() throws {
        let store = try SQLiteStore(path: path())
        defer { store.close() }
        try store.activate(SigningKeyRecord(kid: "k1", algorithm: "EdDSA", publicJWK: "{}", createdAt: t0, status: .active),
                           now: t0, credentialLifetime: 300)
        try store.activate(SigningKeyRecord(kid: "k2", algorithm: "EdDSA", publicJWK: "{}", createdAt: t0, status: .active),
                           now: t0, credentialLifetime: 300)
        #expect(try store.signingKeys().map(\.status) == [.verifying, .active])
        #expect(throws: SQLiteError.self) {
            try store.database.write { db in
                try db.run("UPDATE signing_keys SET status = 'active' WHERE kid = 'k1'")
            }
        }
    }

    /// A database with two active keys (left by the race the index now prevents) keeps the newest.
    @Test func theMigrationDemotesAllButTheNewestActiveKey() throws {
        let file = path()
        var configuration = DatabaseConfiguration(path: file)
        configuration.readerCount = 1
        let old = try Database(configuration, migrations: SQLiteSchema.migrations.filter { $0.version <= 8 })
        try old.write { db in
            try db.run("""
                INSERT INTO signing_keys (kid, algorithm, public_jwk, created_at, status, retire_after)
                VALUES ('old', 'EdDSA', '{}', 1000, 'active', NULL), ('new', 'EdDSA', '{}', 2000, 'active', NULL)
                """)
        }
        old.close()
        let store = try SQLiteStore(path: file)
        defer { store.close() }
        let keys = try store.signingKeys()
        #expect(keys.map(\.kid) == ["old", "new"])
        #expect(keys.map(\.status) == [.verifying, .active])
        #expect((keys[0].retireAfter ?? .distantPast) > Date())
    }
}
