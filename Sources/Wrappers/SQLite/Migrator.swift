/// Applies versioned ``Migration``s and records them in `schema_migrations`.
///
/// Each migration runs in its own `BEGIN IMMEDIATE` transaction together with
/// its bookkeeping row, and the current version is re-read inside that
/// transaction, so two processes starting at once cannot apply one twice.
public enum Migrator {
    /// The bookkeeping table: `version` (primary key), `name`, `applied_at` (UTC ISO 8601).
    public static let tableName = "schema_migrations"

    /// Applies, in version order, the migrations above the database's current
    /// version and returns the versions applied (empty when up to date).
    ///
    /// Throws ``MigrationError/databaseIsNewer(databaseVersion:newestKnown:)``
    /// when the database is ahead of the newest known migration, and
    /// ``MigrationError/failed(version:name:underlying:)`` when one fails (that
    /// migration is rolled back; earlier ones stay applied).
    @discardableResult
    public static func migrate(_ connection: Connection, _ migrations: [Migration]) throws -> [Int] {
        let ordered = try validated(migrations)
        let newestKnown = ordered.last?.version ?? 0
        var applied: [Int] = []
        while true {
            try connection.run("BEGIN IMMEDIATE")
            do {
                try createTable(connection)
                let current = try currentVersion(connection)
                guard current <= newestKnown else {
                    throw MigrationError.databaseIsNewer(databaseVersion: current, newestKnown: newestKnown)
                }
                guard let next = ordered.first(where: { $0.version > current }) else {
                    try connection.run("COMMIT")
                    return applied
                }
                try apply(next, on: connection)
                try connection.run("COMMIT")
                applied.append(next.version)
            } catch {
                if connection.isInTransaction { try? connection.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// The highest recorded version, 0 for a fresh database.
    public static func currentVersion(_ connection: Connection) throws -> Int {
        let exists = try connection.queryOne(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(tableName)])
        guard exists != nil else { return 0 }
        let row = try connection.queryOne("SELECT MAX(version) FROM \(tableName)")
        return Int(row?.int(0) ?? 0)
    }

    private static func createTable(_ connection: Connection) throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(tableName) (
                version INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at TEXT NOT NULL
            )
            """)
    }

    private static func apply(_ migration: Migration, on connection: Connection) throws {
        do {
            try connection.execute(migration.sql)
        } catch let error as SQLiteError {
            throw MigrationError.failed(version: migration.version, name: migration.name, underlying: error)
        }
        try connection.run(
            "INSERT INTO \(tableName) (version, name, applied_at) VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
            [.integer(Int64(migration.version)), .text(migration.name)]
        )
    }

    private static func validated(_ migrations: [Migration]) throws -> [Migration] {
        let ordered = migrations.sorted { $0.version < $1.version }
        for (index, migration) in ordered.enumerated() {
            guard migration.version > 0 else {
                throw MigrationError.invalidMigrations("version \(migration.version) is not positive")
            }
            if index > 0, ordered[index - 1].version == migration.version {
                throw MigrationError.invalidMigrations("version \(migration.version) appears twice")
            }
        }
        return ordered
    }
}
