import Postgres

/// Applies versioned migrations and records them in `schema_migrations`, like the SQLite
/// `Migrator`, safely when several replicas start at once.
///
/// The whole run holds a session-level advisory lock whose key is derived from the current
/// schema (`pg_advisory_lock(hashtextextended('phone-verify migrations|' || current_schema(), 0))`):
/// replicas of one deployment share it, so the first migrates and the others wait, then find
/// nothing left to do. Each migration runs in its own transaction with its bookkeeping row, and
/// the version is re-read inside it. A database newer than this build is refused.
enum PostgresMigrator {
    static let tableName = "schema_migrations"

    static let lockKey = "hashtextextended('phone-verify migrations|' || COALESCE(current_schema(), ''), 0)"

    /// Applies pending migrations; returns the versions applied (empty when up to date).
    @discardableResult
    static func migrate(_ connection: PostgresConnection, _ migrations: [PostgresMigration]) throws -> [Int] {
        let ordered = migrations.sorted { $0.version < $1.version }
        let newestKnown = ordered.last?.version ?? 0
        _ = try connection.query("SELECT pg_advisory_lock(\(lockKey))")
        defer { _ = try? connection.query("SELECT pg_advisory_unlock(\(lockKey))") }
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(tableName) (
                version INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
            )
            """)
        var applied: [Int] = []
        while true {
            let next = try connection.transaction { tx -> Int? in
                let current = Int(try tx.queryFirst("SELECT COALESCE(MAX(version), 0)::bigint AS v FROM \(tableName)")?.int("v") ?? 0)
                guard current <= newestKnown else {
                    throw PostgresStoreError.databaseIsNewer(databaseVersion: current, newestKnown: newestKnown)
                }
                guard let migration = ordered.first(where: { $0.version > current }) else { return nil }
                do {
                    try tx.execute(migration.sql)
                } catch let error as PostgresError {
                    throw PostgresStoreError.migrationFailed(version: migration.version, name: migration.name, underlying: error)
                }
                try tx.run(
                    "INSERT INTO \(tableName) (version, name) VALUES ($1, $2)",
                    [.int(Int64(migration.version)), .text(migration.name)])
                return migration.version
            }
            guard let next else { return applied }
            applied.append(next)
        }
    }

    /// The highest recorded version, 0 for a fresh database.
    static func currentVersion(_ connection: PostgresConnection) throws -> Int {
        guard try connection.queryFirst("SELECT to_regclass($1) IS NOT NULL AS present", [.text(tableName)])?.bool("present") == true
        else { return 0 }
        return Int(try connection.queryFirst("SELECT COALESCE(MAX(version), 0)::bigint AS v FROM \(tableName)")?.int("v") ?? 0)
    }
}
