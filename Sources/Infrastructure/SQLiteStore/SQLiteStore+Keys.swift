import Foundation
import SQLite
import VerifyCore

extension SQLiteStore: SigningKeyStore {
    public func signingKeys() throws -> [SigningKeyRecord] {
        try database.read { db in
            try db.query("SELECT kid, algorithm, public_jwk, created_at, status, retire_after FROM signing_keys ORDER BY created_at, kid")
                .map { row in
                    SigningKeyRecord(
                        kid: try SQLiteRows.string(row, "kid"), algorithm: try SQLiteRows.string(row, "algorithm"),
                        publicJWK: try SQLiteRows.string(row, "public_jwk"),
                        createdAt: SQLiteRows.date(try SQLiteRows.int(row, "created_at")),
                        status: SigningKeyRecord.Status(rawValue: try SQLiteRows.string(row, "status")) ?? .retired,
                        retireAfter: row.int("retire_after").map(SQLiteRows.date))
                }
        }
    }

    public func activate(_ record: SigningKeyRecord, now: Date, credentialLifetime: TimeInterval) throws {
        try database.write { db in
            try db.run(
                "UPDATE signing_keys SET status = 'verifying', retire_after = ? WHERE status = 'active' AND kid <> ?",
                [SQLiteRows.millis(now.addingTimeInterval(credentialLifetime)), .text(record.kid)])
            try db.run(
                """
                INSERT INTO signing_keys (kid, algorithm, public_jwk, created_at, status, retire_after) VALUES (?, ?, ?, ?, 'active', NULL)
                ON CONFLICT (kid) DO UPDATE SET status = 'active', retire_after = NULL
                """,
                [.text(record.kid), .text(record.algorithm), .text(record.publicJWK), SQLiteRows.millis(record.createdAt)])
        }
    }

    public func retire(kid: String) throws -> Bool {
        try database.write { db in
            try db.run("UPDATE signing_keys SET status = 'retired' WHERE kid = ? AND status = 'verifying'", [.text(kid)]) > 0
        }
    }

    public func keepPublished(kid: String, until: Date) throws {
        try database.write { db in
            _ = try db.run(
                "UPDATE signing_keys SET retire_after = MAX(COALESCE(retire_after, 0), ?) WHERE kid = ? AND status = 'verifying'",
                [SQLiteRows.millis(until), .text(kid)])
        }
    }
}
