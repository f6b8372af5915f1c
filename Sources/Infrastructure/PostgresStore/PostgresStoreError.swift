import Postgres

/// Why the PostgreSQL store refused or failed, beyond plain ``PostgresError``s.
public enum PostgresStoreError: Error, CustomStringConvertible, Sendable {
    /// The server could not be reached when the store opened.
    case unreachable(url: String, underlying: PostgresError)
    /// The database was migrated by a newer build (downgrade protection).
    case databaseIsNewer(databaseVersion: Int, newestKnown: Int)
    /// A migration's SQL failed; it was rolled back and the database stays at the previous version.
    case migrationFailed(version: Int, name: String, underlying: PostgresError)
    /// A schema name that is not a plain lower-case identifier.
    case invalidSchemaName(String)
    /// A row with this key already exists (found before sending the insert).
    case duplicateKey(table: String, key: String)
    /// The connection broke while COMMIT was in flight: the transaction may or may not have committed.
    case commitOutcomeUnknown(underlying: PostgresError)
    /// A transaction body kept reading rows whose keys depend on rows it had just read.
    case tooManyDependentReads(rounds: Int)
    /// The store was used wrongly (e.g. a write inside `read`).
    case usage(String)

    public var description: String {
        switch self {
        case let .unreachable(url, underlying):
            return "cannot connect to PostgreSQL at \(url): \(underlying.message)"
        case let .databaseIsNewer(databaseVersion, newestKnown):
            return "database schema version \(databaseVersion) is newer than this build's newest migration \(newestKnown)"
        case let .migrationFailed(version, name, underlying):
            return "migration \(version) (\(name)) failed: \(underlying)"
        case let .invalidSchemaName(name):
            return "invalid schema name '\(name)': use lower-case letters, digits and '_' (at most 63, not starting with a digit)"
        case let .duplicateKey(table, key):
            return "a row with key '\(key)' already exists in \(table)"
        case let .commitOutcomeUnknown(underlying):
            return "the connection to PostgreSQL broke during COMMIT; the outcome is unknown: \(underlying)"
        case let .tooManyDependentReads(rounds):
            return "a store transaction needed more than \(rounds) rounds of dependent reads"
        case let .usage(message):
            return message
        }
    }
}
