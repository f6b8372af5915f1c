/// Why ``Migrator/migrate(_:_:)`` refused or failed.
public enum MigrationError: Error, CustomStringConvertible, Equatable {
    /// The database was migrated by a newer build (downgrade protection):
    /// running older code against it could corrupt data.
    case databaseIsNewer(databaseVersion: Int, newestKnown: Int)
    /// The migration list itself is wrong (duplicate or non-positive version).
    case invalidMigrations(String)
    /// A migration's SQL failed; it was rolled back and the database stays at
    /// the previous version.
    case failed(version: Int, name: String, underlying: SQLiteError)

    /// One line for logs.
    public var description: String {
        switch self {
        case let .databaseIsNewer(databaseVersion, newestKnown):
            return "database schema version \(databaseVersion) is newer than this build's newest migration \(newestKnown)"
        case let .invalidMigrations(reason):
            return "invalid migrations: \(reason)"
        case let .failed(version, name, underlying):
            return "migration \(version) (\(name)) failed: \(underlying)"
        }
    }
}
