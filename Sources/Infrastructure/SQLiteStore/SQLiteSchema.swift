import SQLite

/// Versioned schema of the SQLite store. Append new migrations; never edit applied ones.
enum SQLiteSchema {
    static let migrations: [Migration] = [
        Migration(version: 1, name: "verifications, outbox, idempotency keys", sql: """
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
                code_hash BLOB NOT NULL,
                code_length INTEGER NOT NULL,
                attempts INTEGER NOT NULL,
                max_attempts INTEGER NOT NULL,
                sends INTEGER NOT NULL,
                max_sends INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                last_sent_at INTEGER NOT NULL,
                resend_available_at INTEGER NOT NULL,
                approved_at INTEGER
            ) WITHOUT ROWID;
            CREATE INDEX verifications_expires_at ON verifications (expires_at);
            CREATE TABLE outbox (
                id TEXT PRIMARY KEY,
                verification_id TEXT NOT NULL,
                to_number TEXT NOT NULL,
                purpose TEXT NOT NULL,
                payload BLOB,
                status TEXT NOT NULL,
                gateway TEXT,
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                provider_message_id TEXT,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                next_attempt_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                lease_owner TEXT,
                lease_until INTEGER
            );
            CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'queued';
            CREATE INDEX outbox_by_verification ON outbox (verification_id, created_at);
            CREATE INDEX outbox_by_provider_id ON outbox (provider_message_id) WHERE provider_message_id IS NOT NULL;
            CREATE TABLE idempotency_keys (
                key TEXT PRIMARY KEY,
                fingerprint TEXT NOT NULL,
                verification_id TEXT NOT NULL,
                snapshot BLOB NOT NULL,
                created_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
            """),
        Migration(version: 2, name: "rate limits and fraud counters", sql: """
            CREATE TABLE limit_logs (
                key TEXT PRIMARY KEY,
                events BLOB NOT NULL,
                expires_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX limit_logs_expires_at ON limit_logs (expires_at);
            CREATE TABLE fraud_counts (
                key TEXT NOT NULL,
                bucket INTEGER NOT NULL,
                sent INTEGER NOT NULL DEFAULT 0,
                approved INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (key, bucket)
            ) WITHOUT ROWID;
            CREATE INDEX fraud_counts_bucket ON fraud_counts (bucket);
            CREATE TABLE fraud_overrides (
                key TEXT PRIMARY KEY,
                action TEXT NOT NULL,
                created_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            """),
        Migration(version: 3, name: "MFA factors", sql: """
            CREATE TABLE factors (
                id TEXT PRIMARY KEY,
                subject TEXT NOT NULL,
                phone_number TEXT NOT NULL,
                country_code INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                last_used_at INTEGER,
                UNIQUE (subject, phone_number)
            ) WITHOUT ROWID;
            CREATE INDEX factors_subject ON factors (subject, created_at);
            """),
        Migration(version: 4, name: "signing key metadata", sql: """
            CREATE TABLE signing_keys (
                kid TEXT PRIMARY KEY,
                algorithm TEXT NOT NULL,
                public_jwk TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                status TEXT NOT NULL,
                retire_after INTEGER
            ) WITHOUT ROWID;
            """),
        Migration(version: 5, name: "drop purge-only indexes from per-request tables", sql: """
            DROP INDEX limit_logs_expires_at;
            DROP INDEX fraud_counts_bucket;
            """),
        Migration(version: 6, name: "Twilio-compatible services and verification links", sql: """
            CREATE TABLE twilio_services (
                sid TEXT PRIMARY KEY,
                account_sid TEXT NOT NULL,
                settings TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX twilio_services_account ON twilio_services (account_sid, created_at, sid);
            CREATE TABLE twilio_verifications (
                verification_id TEXT PRIMARY KEY,
                service_sid TEXT NOT NULL,
                account_sid TEXT NOT NULL,
                to_number TEXT NOT NULL,
                created_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX twilio_verifications_to ON twilio_verifications (service_sid, to_number, created_at);
            """),
        Migration(version: 7, name: "delivery receipts that arrive before their send is recorded", sql: """
            CREATE TABLE early_receipts (
                gateway TEXT NOT NULL,
                provider_message_id TEXT NOT NULL,
                status TEXT NOT NULL,
                last_error TEXT,
                received_at INTEGER NOT NULL,
                PRIMARY KEY (gateway, provider_message_id)
            ) WITHOUT ROWID;
            CREATE INDEX early_receipts_received_at ON early_receipts (received_at);
            """),
        Migration(version: 8, name: "redeemed credentials (introspection)", sql: """
            CREATE TABLE redeemed_credentials (
                jti TEXT PRIMARY KEY,
                expires_at INTEGER NOT NULL,
                redeemed_by TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX redeemed_credentials_expires_at ON redeemed_credentials (expires_at);
            """),
        // Two replicas activating different keys at the same instant must not leave two active
        // keys (PostgreSQL's concurrent activations; kept identical here). Any such pair from
        // before keeps only the newest active; the others verify for a day.
        Migration(version: 9, name: "at most one active signing key", sql: """
            UPDATE signing_keys SET status = 'verifying',
                retire_after = CAST(strftime('%s', 'now') AS INTEGER) * 1000 + 86400000
            WHERE status = 'active' AND kid <> (
                SELECT kid FROM signing_keys WHERE status = 'active' ORDER BY created_at DESC, kid DESC LIMIT 1);
            CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (status) WHERE status = 'active';
            """),
        // Verifications started through the Twilio-compatible API were labelled sign_in, so the
        // native routes (and their credentials) reached them; they are twilio_compat now. Their
        // outbox rows carry the purpose too (the gateways and the dev inbox show it).
        Migration(version: 10, name: "Twilio-compatible verifications have their own purpose", sql: """
            UPDATE verifications SET purpose = 'twilio_compat'
            WHERE purpose = 'sign_in' AND id IN (SELECT verification_id FROM twilio_verifications);
            UPDATE outbox SET purpose = 'twilio_compat'
            WHERE purpose = 'sign_in' AND verification_id IN (SELECT verification_id FROM twilio_verifications);
            """),
        Migration(version: 11, name: "challenge tokens used once, App Attest keys", sql: """
            CREATE TABLE IF NOT EXISTS challenge_replays (
                key TEXT PRIMARY KEY,
                expires_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS challenge_replays_expires_at ON challenge_replays (expires_at);
            CREATE TABLE IF NOT EXISTS app_attest_keys (
                key_id TEXT PRIMARY KEY,
                app_id TEXT NOT NULL,
                public_key BLOB NOT NULL,
                counter INTEGER NOT NULL,
                environment TEXT NOT NULL,
                created_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            """),
        // The events outbox (docs/EVENTS.md): written with the change each event reports, sent by
        // the event senders with leases like the SMS outbox. IF NOT EXISTS: tests roll
        // schema_migrations back and migrate again.
        Migration(version: 12, name: "events outbox for the main auth server", sql: """
            CREATE TABLE IF NOT EXISTS events (
                id TEXT PRIMARY KEY,
                type TEXT NOT NULL,
                body TEXT NOT NULL,
                status TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                next_attempt_at INTEGER NOT NULL,
                lease_owner TEXT,
                lease_until INTEGER
            );
            CREATE INDEX IF NOT EXISTS events_due ON events (next_attempt_at) WHERE status = 'queued';
            CREATE INDEX IF NOT EXISTS events_ended ON events (updated_at) WHERE status <> 'queued';
            """),
        // Support's lookup of a number's verifications (GET /v1/admin/verifications) read the
        // whole table; one more index entry per start is the price (docs/BENCHMARKS.md).
        Migration(version: 13, name: "verifications by phone number", sql: """
            CREATE INDEX IF NOT EXISTS verifications_phone ON verifications (phone_number, created_at);
            """),
        // Channels (docs/GATEWAYS.md): each message's channel, and for a fallback of an `auto`
        // send the message it backs up. Not re-runnable (SQLite has no ADD COLUMN IF NOT EXISTS):
        // a test rolling schema_migrations back past it drops the columns first.
        Migration(version: 14, name: "message channels and fallbacks", sql: """
            ALTER TABLE outbox ADD COLUMN channel TEXT NOT NULL DEFAULT 'sms';
            ALTER TABLE outbox ADD COLUMN fallback_of TEXT;
            CREATE INDEX IF NOT EXISTS outbox_fallbacks ON outbox (fallback_of) WHERE fallback_of IS NOT NULL;
            """),
        // Imported factors (docs/MFA.md "Importing factors") keep the name the user gave the phone.
        // Not re-runnable, like 14.
        Migration(version: 15, name: "factor display names", sql: """
            ALTER TABLE factors ADD COLUMN display_name TEXT;
            """),
    ]
}
