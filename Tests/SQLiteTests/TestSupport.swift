import Foundation
import SQLite

/// A fresh directory under the system temp dir, removed when released.
final class TemporaryDirectory: Sendable {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "sqlite-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A file path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }
}

/// The schema most tests use.
let itemsMigrations = [
    Migration(version: 1, name: "items", sql: """
        CREATE TABLE items (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            thread INTEGER NOT NULL DEFAULT 0
        );
        """),
]

/// Opens a database with the items schema in `directory`.
func openItemsDatabase(_ directory: TemporaryDirectory, name: String = "test.db",
                       configure: (inout DatabaseConfiguration) -> Void = { _ in }) throws -> Database {
    var configuration = DatabaseConfiguration(path: directory.file(name))
    configure(&configuration)
    return try Database(configuration, migrations: itemsMigrations)
}


/// Polls `condition` until it holds or `seconds` pass; returns whether it held.
func eventually(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// Counts items in the database through a reader.
func itemCount(_ database: Database) throws -> Int64 {
    try database.read { try $0.queryOne("SELECT COUNT(*) FROM items")?.int(0) ?? -1 }
}

/// An error thrown on purpose by a test body.
struct IntentionalError: Error, Equatable {
    let label: String
}

