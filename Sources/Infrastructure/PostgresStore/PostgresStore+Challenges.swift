import Foundation
import Postgres
import VerifyCore

/// Challenge state shared by every replica: tokens used once, App Attest keys and counters.
extension PostgresStore: ChallengeLedger {
    public func consumeOnce(key: String, expiresAt: Date, now: Date) throws -> Bool {
        // Not retried after a lost connection: had the first try committed, the retry would call
        // the caller's own use a replay. A lost connection fails the challenge as unavailable.
        let sql = """
            INSERT INTO challenge_replays (key, expires_at) VALUES ($1, $2)
            ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE challenge_replays.expires_at < $3
            """
        return try pool.withConnection { connection in
            try trip {
                try connection.run(sql, [.text(key), PostgresRows.millis(expiresAt), PostgresRows.millis(now)])
            } == 1
        }
    }

    public func attestedKey(id: String) throws -> AttestedKey? {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip { try connection.queryFirst("SELECT * FROM app_attest_keys WHERE key_id = $1", [.text(id)]) }.map { row in
                    AttestedKey(
                        keyID: try PostgresRows.string(row, "key_id"), appID: try PostgresRows.string(row, "app_id"),
                        publicKey: row.bytes("public_key") ?? [], counter: row.int("counter") ?? 0,
                        environment: try PostgresRows.string(row, "environment"),
                        createdAt: PostgresRows.date(row.int("created_at") ?? 0))
                }
            }
        }
    }

    public func insertAttestedKey(_ key: AttestedKey) throws -> Bool {
        try pool.withConnection { connection in
            try trip {
                try connection.run(
                    """
                    INSERT INTO app_attest_keys (key_id, app_id, public_key, counter, environment, created_at)
                    VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (key_id) DO NOTHING
                    """,
                    [.text(key.keyID), .text(key.appID), .bytes(key.publicKey), .int(key.counter), .text(key.environment),
                     PostgresRows.millis(key.createdAt)])
            } == 1
        }
    }

    public func advanceAttestedKeyCounter(id: String, to counter: Int64) throws -> Bool {
        try pool.withConnection { connection in
            try trip {
                try connection.run(
                    "UPDATE app_attest_keys SET counter = $1 WHERE key_id = $2 AND counter < $1", [.int(counter), .text(id)])
            } == 1
        }
    }
}
