import SQLite
import Testing

@Suite("Migrator")
struct MigratorTests {
    let directory = TemporaryDirectory()

    static let migrations = [
        Migration(version: 2, name: "add phone", sql: "ALTER TABLE users ADD COLUMN phone TEXT"),
        Migration(version: 1, name: "users", sql: "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)"),
        Migration(version: 3, name: "index", sql: "CREATE INDEX users_phone ON users(phone)"),
    ]

    func open() throws -> Connection {
        try Connection(path: directory.file("migrations.db"))
    }

    @Test func appliesInOrderAndRecords() throws {
        let connection = try open()
        #expect(try Migrator.currentVersion(connection) == 0)
        #expect(try Migrator.migrate(connection, Self.migrations) == [1, 2, 3])
        let rows = try connection.query("SELECT version, name, applied_at FROM schema_migrations ORDER BY version")
        #expect(rows.map { $0.int("version") } == [1, 2, 3])
        #expect(rows.map { $0.text("name") } == ["users", "add phone", "index"])
        #expect(rows.allSatisfy { ($0.text("applied_at") ?? "").hasSuffix("Z") })
        #expect(try Migrator.currentVersion(connection) == 3)
        try connection.run("INSERT INTO users (name, phone) VALUES ('a', '+1555')")
    }

    @Test func rerunningAppliesNothingAndNewOnesApply() throws {
        let connection = try open()
        try Migrator.migrate(connection, Self.migrations)
        #expect(try Migrator.migrate(connection, Self.migrations) == [])
        let more = Self.migrations + [Migration(version: 4, name: "email", sql: "ALTER TABLE users ADD COLUMN email TEXT")]
        #expect(try Migrator.migrate(connection, more) == [4])
        #expect(try connection.queryOne("SELECT COUNT(*) FROM schema_migrations")?.int(0) == 4)
    }

    @Test func newerDatabaseIsRefused() throws {
        let connection = try open()
        try Migrator.migrate(connection, Self.migrations)
        let older = Array(Self.migrations.prefix(2))
        #expect(throws: MigrationError.databaseIsNewer(databaseVersion: 3, newestKnown: 2)) {
            try Migrator.migrate(connection, older)
        }
        #expect(!connection.isInTransaction)
    }

    @Test func failingMigrationRollsBackToPreviousVersion() throws {
        let connection = try open()
        let broken = [
            Self.migrations[1],
            Migration(version: 2, name: "broken", sql: "CREATE TABLE extra (x); INSERT INTO nowhere VALUES (1)"),
        ]
        let error = try #require(throws: MigrationError.self) { try Migrator.migrate(connection, broken) }
        guard case let .failed(version, name, underlying) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(version == 2 && name == "broken")
        #expect(underlying.message.contains("no such table: nowhere"))
        #expect(try Migrator.currentVersion(connection) == 1)
        #expect(try connection.queryOne("SELECT name FROM sqlite_schema WHERE name = 'extra'") == nil)
        #expect(!connection.isInTransaction)
        // Fixed migration applies.
        #expect(try Migrator.migrate(connection, Self.migrations) == [2, 3])
    }

    @Test func invalidListsAreRejected() throws {
        let connection = try open()
        let duplicate = [Self.migrations[1], Migration(version: 1, name: "again", sql: "SELECT 1")]
        #expect(throws: MigrationError.invalidMigrations("version 1 appears twice")) {
            try Migrator.migrate(connection, duplicate)
        }
        #expect(throws: MigrationError.self) {
            try Migrator.migrate(connection, [Migration(version: 0, name: "zero", sql: "SELECT 1")])
        }
    }

    @Test func databaseOpeningFailsOnBrokenMigration() throws {
        let broken = [Migration(version: 1, name: "bad", sql: "CREATE TABLE")]
        #expect(throws: MigrationError.self) {
            try Database(DatabaseConfiguration(path: directory.file("db/broken.db")), migrations: broken)
        }
    }
}
