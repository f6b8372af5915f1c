import Foundation
import PostgresStore
import SettingsTable
import SQLiteStore
import VerifyCore

/// Everything the application needs from a store.
typealias AppStore = VerificationStore & OutboxStore & SigningKeyStore & CredentialRedemptionStore & ChallengeLedger

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

    /// An operator's command (`fraud`, `keys`) found no SQLite database where the configuration
    /// points: it is not acting on the service's store, and must not create an empty one.
    struct NoDatabase: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "no database at \(path): run this with the service's settings (\(Settings.dataDirectory.name) or "
                + "\(Settings.databaseURL.name), e.g. from its environment file) and as its user"
        }
    }

    /// For operators' commands: the service's existing store only; says on stderr which one.
    static func openExisting(_ c: Configuration) throws -> Opened {
        if c.postgresURL == nil, !FileManager.default.fileExists(atPath: c.sqlitePath) { throw NoDatabase(path: c.sqlitePath) }
        let opened = try open(c)
        FileHandle.standardError.write(Data("phone-verify: using \(opened.description)\n".utf8))
        return opened
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
