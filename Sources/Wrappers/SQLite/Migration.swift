/// One versioned schema change, applied by ``Migrator`` in its own transaction.
///
/// `sql` may hold several statements but must not contain transaction control
/// (`BEGIN`, `COMMIT`) or PRAGMAs that cannot run inside a transaction
/// (`foreign_keys`, `journal_mode`).
public struct Migration: Sendable, Equatable {
    /// Positive, unique, increasing: the schema version this migration produces.
    public let version: Int
    /// A short human-readable name, recorded alongside the version.
    public let name: String
    /// The DDL/DML script.
    public let sql: String

    /// A migration to version `version`.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}
