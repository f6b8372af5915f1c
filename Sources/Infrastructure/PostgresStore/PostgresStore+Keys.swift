import Foundation
import Postgres
import VerifyCore

/// Signing-key metadata shared by every replica, as in `SQLiteStore+Keys`.
extension PostgresStore {
    public func signingKeys() throws -> [SigningKeyRecord] {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip {
                    try connection.query(
                        "SELECT kid, algorithm, public_jwk, created_at, status, retire_after FROM signing_keys ORDER BY created_at, kid")
                }
                .map { row in
                    SigningKeyRecord(
                        kid: try PostgresRows.string(row, "kid"), algorithm: try PostgresRows.string(row, "algorithm"),
                        publicJWK: try PostgresRows.string(row, "public_jwk"),
                        createdAt: PostgresRows.date(try PostgresRows.int(row, "created_at")),
                        status: SigningKeyRecord.Status(rawValue: try PostgresRows.string(row, "status")) ?? .retired,
                        retireAfter: row.int("retire_after").map(PostgresRows.date))
                }
            }
        }
    }

    /// One implicit transaction: demote the other active key, then insert or re-activate this one.
    public func activate(_ record: SigningKeyRecord, now: Date, credentialLifetime: TimeInterval) throws {
        let statements: [(sql: String, params: [PostgresValue])] = [
            (
                "UPDATE signing_keys SET status = 'verifying', retire_after = $1 WHERE status = 'active' AND kid <> $2",
                [PostgresRows.millis(now.addingTimeInterval(credentialLifetime)), .text(record.kid)]
            ),
            (
                """
                INSERT INTO signing_keys (kid, algorithm, public_jwk, created_at, status, retire_after) VALUES ($1, $2, $3, $4, 'active', NULL)
                ON CONFLICT (kid) DO UPDATE SET status = 'active', retire_after = NULL
                """,
                [.text(record.kid), .text(record.algorithm), .text(record.publicJWK), PostgresRows.millis(record.createdAt)]
            ),
        ]
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                _ = try trip { try connection.pipelineResults(statements) }
            }
        }
    }

    /// Never shortens: a replica still signing with an old key during a rolling change extends it.
    public func keepPublished(kid: String, until: Date) throws {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                _ = try trip {
                    try connection.run(
                        "UPDATE signing_keys SET retire_after = GREATEST(COALESCE(retire_after, 0), $1) WHERE kid = $2 AND status = 'verifying'",
                        [PostgresRows.millis(until), .text(kid)])
                }
            }
        }
    }

    public func retire(kid: String) throws -> Bool {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip {
                    try connection.run("UPDATE signing_keys SET status = 'retired' WHERE kid = $1 AND status = 'verifying'", [.text(kid)])
                } > 0
            }
        }
    }
}

/// One-time redemption of credentials, shared by every replica.
extension PostgresStore: CredentialRedemptionStore {
    public func redeem(jti: String, expiresAt: Date, attempt: String) throws -> Bool {
        // Retried after a lost connection: if the first try committed, the row names this attempt.
        // (The main query does not see the CTE's insert, hence both branches.)
        let sql = """
            WITH inserted AS (
                INSERT INTO redeemed_credentials (jti, expires_at, redeemed_by) VALUES ($1, $2, $3)
                ON CONFLICT (jti) DO NOTHING RETURNING redeemed_by
            )
            SELECT redeemed_by FROM inserted
            UNION ALL SELECT redeemed_by FROM redeemed_credentials WHERE jti = $1
            LIMIT 1
            """
        return try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip {
                    try connection.queryFirst(sql, [.text(jti), PostgresRows.millis(expiresAt), .text(attempt)])
                }?.text("redeemed_by") == attempt
            }
        }
    }
}
