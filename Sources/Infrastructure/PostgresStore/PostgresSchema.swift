/// One versioned schema change of the PostgreSQL store, applied in its own transaction.
struct PostgresMigration: Sendable {
    let version: Int
    let name: String
    let sql: String
}

/// Versioned schema of the PostgreSQL store: the same tables, columns, versions and names as
/// `SQLiteSchema` (instants are `BIGINT` Unix milliseconds, blobs `BYTEA`). Append new
/// migrations; never edit applied ones.
///
/// Differences from SQLite, all additive:
/// - `outbox.seq` (an identity column) stands in for SQLite's `rowid`: the insertion order that
///   breaks ties between messages created in the same millisecond (`latestMessage`).
/// - Indexes SQLite does without because it scans locally: leases by owner (renew/release run
///   every few seconds on every replica) and `outbox.expires_at` (purge).
enum PostgresSchema {
    static let migrations: [PostgresMigration] = [
        PostgresMigration(version: 1, name: "verifications, outbox, idempotency keys", sql: """
            CREATE TABLE verifications (
                id TEXT PRIMARY KEY,
                phone_number TEXT NOT NULL,
                display TEXT NOT NULL,
                region TEXT NOT NULL,
                country_code INTEGER NOT NULL,
                channel TEXT NOT NULL,
                locale TEXT,
                purpose TEXT NOT NULL,
                subject TEXT,
                session_id TEXT,
                status TEXT NOT NULL,
                code_hash BYTEA NOT NULL,
                code_length INTEGER NOT NULL,
                attempts INTEGER NOT NULL,
                max_attempts INTEGER NOT NULL,
                sends INTEGER NOT NULL,
                max_sends INTEGER NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                last_sent_at BIGINT NOT NULL,
                resend_available_at BIGINT NOT NULL,
                approved_at BIGINT
            );
            CREATE INDEX verifications_expires_at ON verifications (expires_at);
            CREATE TABLE outbox (
                id TEXT PRIMARY KEY,
                verification_id TEXT NOT NULL,
                to_number TEXT NOT NULL,
                purpose TEXT NOT NULL,
                payload BYTEA,
                status TEXT NOT NULL,
                gateway TEXT,
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                provider_message_id TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                next_attempt_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                lease_owner TEXT,
                lease_until BIGINT,
                seq BIGINT GENERATED ALWAYS AS IDENTITY
            );
            CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'queued';
            CREATE INDEX outbox_by_verification ON outbox (verification_id, created_at);
            CREATE INDEX outbox_by_provider_id ON outbox (provider_message_id) WHERE provider_message_id IS NOT NULL;
            CREATE INDEX outbox_by_lease_owner ON outbox (lease_owner) WHERE lease_owner IS NOT NULL;
            CREATE INDEX outbox_expires_at ON outbox (expires_at);
            CREATE TABLE idempotency_keys (
                key TEXT PRIMARY KEY,
                fingerprint TEXT NOT NULL,
                verification_id TEXT NOT NULL,
                snapshot BYTEA NOT NULL,
                created_at BIGINT NOT NULL
            );
            CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
            """),
        PostgresMigration(version: 2, name: "rate limits and fraud counters", sql: """
            CREATE TABLE limit_logs (
                key TEXT PRIMARY KEY,
                events BYTEA NOT NULL,
                expires_at BIGINT NOT NULL
            );
            CREATE INDEX limit_logs_expires_at ON limit_logs (expires_at);
            CREATE TABLE fraud_counts (
                key TEXT NOT NULL,
                bucket BIGINT NOT NULL,
                sent BIGINT NOT NULL DEFAULT 0,
                approved BIGINT NOT NULL DEFAULT 0,
                PRIMARY KEY (key, bucket)
            );
            CREATE INDEX fraud_counts_bucket ON fraud_counts (bucket);
            CREATE TABLE fraud_overrides (
                key TEXT PRIMARY KEY,
                action TEXT NOT NULL,
                created_at BIGINT NOT NULL
            );
            """),
        PostgresMigration(version: 3, name: "MFA factors", sql: """
            CREATE TABLE factors (
                id TEXT PRIMARY KEY,
                subject TEXT NOT NULL,
                phone_number TEXT NOT NULL,
                country_code INTEGER NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT,
                UNIQUE (subject, phone_number)
            );
            CREATE INDEX factors_subject ON factors (subject, created_at);
            """),
        PostgresMigration(version: 4, name: "signing key metadata", sql: """
            CREATE TABLE signing_keys (
                kid TEXT PRIMARY KEY,
                algorithm TEXT NOT NULL,
                public_jwk TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                status TEXT NOT NULL,
                retire_after BIGINT
            );
            """),
        PostgresMigration(version: 5, name: "drop purge-only indexes from per-request tables", sql: """
            DROP INDEX limit_logs_expires_at;
            DROP INDEX fraud_counts_bucket;
            -- Room on each page for the new version of a rewritten log: with no index on the columns a
            -- request changes, its update is HOT (no index entry, no index bloat).
            ALTER TABLE limit_logs SET (fillfactor = 70);
            """),
        PostgresMigration(version: 6, name: "Twilio-compatible services and verification links", sql: """
            CREATE TABLE twilio_services (
                sid TEXT PRIMARY KEY,
                account_sid TEXT NOT NULL,
                settings TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            );
            CREATE INDEX twilio_services_account ON twilio_services (account_sid, created_at, sid);
            CREATE TABLE twilio_verifications (
                verification_id TEXT PRIMARY KEY,
                service_sid TEXT NOT NULL,
                account_sid TEXT NOT NULL,
                to_number TEXT NOT NULL,
                created_at BIGINT NOT NULL
            );
            CREATE INDEX twilio_verifications_to ON twilio_verifications (service_sid, to_number, created_at);
            """),
        PostgresMigration(version: 7, name: "delivery receipts that arrive before their send is recorded", sql: """
            CREATE TABLE early_receipts (
                gateway TEXT NOT NULL,
                provider_message_id TEXT NOT NULL,
                status TEXT NOT NULL,
                last_error TEXT,
                received_at BIGINT NOT NULL,
                PRIMARY KEY (gateway, provider_message_id)
            );
            CREATE INDEX early_receipts_received_at ON early_receipts (received_at);
            """),
        PostgresMigration(version: 8, name: "redeemed credentials (introspection)", sql: """
            CREATE TABLE redeemed_credentials (
                jti TEXT PRIMARY KEY,
                expires_at BIGINT NOT NULL,
                redeemed_by TEXT NOT NULL
            );
            CREATE INDEX redeemed_credentials_expires_at ON redeemed_credentials (expires_at);
            """),
        // Two replicas activating different keys at once each saw no other active key: the index
        // makes the second wait for the first and fail, and its retry demotes the first (the
        // last activation wins, as when they start apart). Any pair from before keeps the newest.
        // The table lock keeps a replica of the previous version from activating a key between the
        // demotion and the index build (which would then fail on two active keys).
        PostgresMigration(version: 9, name: "at most one active signing key", sql: """
            LOCK TABLE signing_keys IN SHARE ROW EXCLUSIVE MODE;
            UPDATE signing_keys SET status = 'verifying',
                retire_after = (EXTRACT(EPOCH FROM now()) * 1000)::BIGINT + 86400000
            WHERE status = 'active' AND kid <> (
                SELECT kid FROM signing_keys WHERE status = 'active' ORDER BY created_at DESC, kid DESC LIMIT 1);
            CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (status) WHERE status = 'active';
            """),
        // As SQLite's: verifications started through the Twilio-compatible API (and their outbox
        // rows) were labelled sign_in, so the native routes reached them.
        PostgresMigration(version: 10, name: "Twilio-compatible verifications have their own purpose", sql: """
            UPDATE verifications SET purpose = 'twilio_compat'
            WHERE purpose = 'sign_in' AND id IN (SELECT verification_id FROM twilio_verifications);
            UPDATE outbox SET purpose = 'twilio_compat'
            WHERE purpose = 'sign_in' AND verification_id IN (SELECT verification_id FROM twilio_verifications);
            """),
        PostgresMigration(version: 11, name: "challenge tokens used once, App Attest keys", sql: """
            CREATE TABLE IF NOT EXISTS challenge_replays (
                key TEXT PRIMARY KEY,
                expires_at BIGINT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS challenge_replays_expires_at ON challenge_replays (expires_at);
            CREATE TABLE IF NOT EXISTS app_attest_keys (
                key_id TEXT PRIMARY KEY,
                app_id TEXT NOT NULL,
                public_key BYTEA NOT NULL,
                counter BIGINT NOT NULL,
                environment TEXT NOT NULL,
                created_at BIGINT NOT NULL
            );
            """),
        // As SQLite's, plus an index of leases by owner (released at every graceful stop).
        PostgresMigration(version: 12, name: "events outbox for the main auth server", sql: """
            CREATE TABLE IF NOT EXISTS events (
                id TEXT PRIMARY KEY,
                type TEXT NOT NULL,
                body TEXT NOT NULL,
                status TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                next_attempt_at BIGINT NOT NULL,
                lease_owner TEXT,
                lease_until BIGINT
            );
            CREATE INDEX IF NOT EXISTS events_due ON events (next_attempt_at) WHERE status = 'queued';
            CREATE INDEX IF NOT EXISTS events_ended ON events (updated_at) WHERE status <> 'queued';
            CREATE INDEX IF NOT EXISTS events_lease_owner ON events (lease_owner) WHERE lease_owner IS NOT NULL;
            """),
        // Support's lookup of a number's verifications (GET /v1/admin/verifications) read the
        // whole table; one more index entry per start is the price (docs/BENCHMARKS.md).
        PostgresMigration(version: 13, name: "verifications by phone number", sql: """
            CREATE INDEX IF NOT EXISTS verifications_phone ON verifications (phone_number, created_at);
            """),
        // As SQLite's.
        PostgresMigration(version: 14, name: "message channels and fallbacks", sql: """
            ALTER TABLE outbox ADD COLUMN IF NOT EXISTS channel TEXT NOT NULL DEFAULT 'sms';
            ALTER TABLE outbox ADD COLUMN IF NOT EXISTS fallback_of TEXT;
            CREATE INDEX IF NOT EXISTS outbox_fallbacks ON outbox (fallback_of) WHERE fallback_of IS NOT NULL;
            """),
        // As SQLite's.
        PostgresMigration(version: 15, name: "factor display names", sql: """
            ALTER TABLE factors ADD COLUMN IF NOT EXISTS display_name TEXT;
            """),
    ]

    /// Unique constraints whose violation means "a concurrent transaction inserted the same key
    /// first": rerunning the body lets it see that row (an idempotent replay, an existing factor).
    /// Other violations (a duplicate verification or message id) are real errors.
    static let retriableUniqueConstraints: Set<String> = [
        "idempotency_keys_pkey", "factors_subject_phone_number_key", "limit_logs_pkey", "fraud_counts_pkey",
        "fraud_overrides_pkey", "signing_keys_pkey", "signing_keys_one_active", "schema_migrations_pkey",
    ]
}
