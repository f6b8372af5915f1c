import Foundation
import PostgresStore
import Stores
import VerifyCore

/// Everything the application needs from a store.
typealias AppStore = VerificationStore & OutboxStore & SigningKeyStore & CredentialRedemptionStore

/// Opens the configured store (SQLite by default, PostgreSQL for `postgres://` URLs), applying
/// migrations.
enum StoreFactory {
    struct Opened {
        let store: any AppStore
        let close: @Sendable () -> Void
        let description: String
        let schemaVersion: Int
    }

    /// The store `open` would use, with any password hidden.
    static func describe(_ c: Configuration) -> String {
        c.postgresURL.map(PostgresStore.displayURL) ?? "sqlite:" + c.sqlitePath
    }

    static func open(_ c: Configuration) throws -> Opened {
        if let url = c.postgresURL {
            let store = try PostgresStore(url: url, poolSize: c.postgresPoolSize)
            return Opened(store: store, close: { store.close() }, description: store.displayURL, schemaVersion: PostgresStore.latestSchemaVersion)
        }
        let store = try SQLiteStore(path: c.sqlitePath, synchronous: c.sqliteSynchronous)
        return Opened(store: store, close: { store.close() }, description: "sqlite:" + c.sqlitePath, schemaVersion: SQLiteStore.latestSchemaVersion)
    }
}
