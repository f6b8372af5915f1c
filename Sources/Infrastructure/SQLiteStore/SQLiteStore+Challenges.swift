import Foundation
import SQLite
import VerifyCore

/// Challenge state: tokens used once, App Attest keys and their counters.
extension SQLiteStore: ChallengeLedger {
    public func consumeOnce(key: String, expiresAt: Date, now: Date) throws -> Bool {
        try database.write { db in
            // An expired row of the same key (its purge not yet run) no longer counts.
            _ = try db.run("DELETE FROM challenge_replays WHERE key = ? AND expires_at < ?", [.text(key), SQLiteRows.millis(now)])
            return try db.run(
                "INSERT OR IGNORE INTO challenge_replays (key, expires_at) VALUES (?, ?)",
                [.text(key), SQLiteRows.millis(expiresAt)]) == 1
        }
    }

    public func attestedKey(id: String) throws -> AttestedKey? {
        try database.read { db in
            try db.queryOne("SELECT * FROM app_attest_keys WHERE key_id = ?", [.text(id)]).map { row in
                AttestedKey(
                    keyID: try SQLiteRows.string(row, "key_id"), appID: try SQLiteRows.string(row, "app_id"),
                    publicKey: row.blob("public_key") ?? [], counter: try SQLiteRows.int(row, "counter"),
                    environment: try SQLiteRows.string(row, "environment"),
                    createdAt: SQLiteRows.date(try SQLiteRows.int(row, "created_at")))
            }
        }
    }

    public func insertAttestedKey(_ key: AttestedKey) throws -> Bool {
        try database.write { db in
            try db.run(
                """
                INSERT OR IGNORE INTO app_attest_keys (key_id, app_id, public_key, counter, environment, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [.text(key.keyID), .text(key.appID), .blob(key.publicKey), .integer(key.counter), .text(key.environment),
                 SQLiteRows.millis(key.createdAt)]) == 1
        }
    }

    public func advanceAttestedKeyCounter(id: String, to counter: Int64) throws -> Bool {
        try database.write { db in
            try db.run("UPDATE app_attest_keys SET counter = ? WHERE key_id = ? AND counter < ?", [.integer(counter), .text(id), .integer(counter)]) == 1
        }
    }
}
