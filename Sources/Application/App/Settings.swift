/// One configuration setting: its variable, default and meaning. This table drives both
/// parsing and `phone-verify --help`, so the help can never drift from what is read.
public struct Setting: Sendable {
    public let name: String
    public let defaultValue: String
    public let help: String
    public let secret: Bool
    /// How `config check` shows the value (secrets: not at all).
    public let mask: SettingMask

    init(_ name: String, _ defaultValue: String, _ help: String, secret: Bool = false, mask: SettingMask = .urlCredentials) {
        self.name = name
        self.defaultValue = defaultValue
        self.help = help
        self.secret = secret
        self.mask = secret ? .secret : mask
    }
}

/// Every setting PhoneVerify reads.
public enum Settings {
    public static let all: [Setting] = [
        Setting("PHONE_VERIFY_CONFIG_FILE", "(none)", "file of KEY=VALUE lines read before the environment (the environment wins)"),
        Setting("PHONE_VERIFY_MODE", "development", "development or production (the Docker image sets production); production refuses dev endpoints, generated keys and secrets, and the console sink"),
        Setting("PHONE_VERIFY_DEV_EXPOSE", "false", "true: development endpoints (/dev/…: messages and their codes) answer every client, not only loopback ones (logged as a warning at start)"),
        Setting("PHONE_VERIFY_LISTEN", "127.0.0.1:8080", "host:port to listen on; port 0 picks a free port and prints it"),
        Setting("PHONE_VERIFY_DATA_DIR", "./data", "directory of the SQLite database and, in development, generated keys"),
        Setting("PHONE_VERIFY_DATABASE_URL", "sqlite:<data dir>/phone-verify.db", "the store: sqlite:PATH or postgres://user:password@host:port/db?sslmode=…", secret: true),
        Setting("PHONE_VERIFY_POSTGRES_POOL_SIZE", "16", "PostgreSQL connections per replica"),
        Setting("PHONE_VERIFY_SQLITE_SYNCHRONOUS", "NORMAL", "SQLite synchronous level: NORMAL (durable across process crashes) or FULL (also across power loss)"),
        Setting("PHONE_VERIFY_ISSUER", "http://<listen>", "credential iss, and the base of the discovery document's URLs"),
        Setting("PHONE_VERIFY_AUDIENCE", "main-auth", "credential aud"),
        Setting("PHONE_VERIFY_CREDENTIAL_TTL", "300", "credential lifetime, seconds"),
        Setting("PHONE_VERIFY_SIGNING_KEY_FILE", "generated in dev (<data dir>/signing-key.pem)", "PEM private key (Ed25519, P-256 or RSA); required in production"),
        Setting("PHONE_VERIFY_KEY_REFRESH", "30", "seconds between rereads of the published keys; a key activated by `phone-verify keys rotate` is published by every replica within this time and signed with one interval later (in production, once the replica's key file holds it)"),
        Setting("PHONE_VERIFY_SIGNING_ALGORITHM", "EdDSA", "algorithm of a generated development key: EdDSA, ES256 or RS256"),
        Setting("PHONE_VERIFY_CODE_SECRET", "generated in dev (<data dir>/code-secret)", "server secret (≥ 32 characters) for code HMACs and outbox encryption; required in production, the same on every replica", secret: true),
        Setting("PHONE_VERIFY_CODE_LENGTH", "6", "digits per code, 4–10"),
        Setting("PHONE_VERIFY_CODE_TTL", "300", "seconds a code stays valid (NIST SP 800-63B caps at 600)"),
        Setting("PHONE_VERIFY_MAX_ATTEMPTS", "5", "checks per verification"),
        Setting("PHONE_VERIFY_MAX_SENDS", "5", "sends (first + resends) per verification"),
        Setting("PHONE_VERIFY_RESEND_COOLDOWN", "30", "seconds before the first resend; doubles after each send"),
        Setting("PHONE_VERIFY_ALLOWED_LINE_TYPES", "mobile,fixed_line_or_mobile", "line types that may receive codes"),
        Setting("PHONE_VERIFY_REGION_ALLOW_LIST", "(none)", "ISO 3166 regions allowed, comma-separated; empty allows all"),
        Setting("PHONE_VERIFY_REGION_DENY_LIST", "(none)", "ISO 3166 regions refused, comma-separated"),
        Setting("PHONE_VERIFY_LIMITS", "phone_send=5/1h,10/1d;ip_send=20/10m,200/1d;ip_check=100/10m;prefix_send=50/1h;global_send=1000/1m;phone_failed_check=5/1d;user_send=10/1h,30/1d", "rate limits, scope=N/window[,N/window];… (windows 30s, 10m, 1h, 1d; scope=off disables one); scopes not named keep their defaults; phone_failed_check=N/W: free wrong codes per number and requester before the backoff"),
        Setting("PHONE_VERIFY_LOCKOUT_BACKOFF", "30s,5m", "failed-check lockout: the first wait after the free wrong codes and the longest (it doubles per further wrong code), per number and requester"),
        Setting("PHONE_VERIFY_PREFIX_DIGITS", "all but the last 4", "leading digits of the E.164 number (country code included) that form a destination prefix for prefix_send and the fraud guard"),
        Setting("PHONE_VERIFY_FRAUD", "on", "adaptive SMS-pumping guard: on or off"),
        Setting("PHONE_VERIFY_FRAUD_MIN_SENDS", "50", "sends to a prefix or country in the window before its conversion is judged"),
        Setting("PHONE_VERIFY_FRAUD_MIN_CONVERSION", "0.2", "approved ÷ sent below which sends to a prefix or country are refused (suspected_fraud)"),
        Setting("PHONE_VERIFY_FRAUD_WINDOW", "3600", "seconds of history the fraud guard judges"),
        Setting("PHONE_VERIFY_TEST_NUMBERS", "(none)", "fixed-code test numbers, +E164:CODE,… (no SMS; only the number's phone_send quota and the check limits apply)", mask: .testNumberCodes),
        Setting("PHONE_VERIFY_TEST_NUMBERS_EXPIRE_AT", "(none)", "RFC 3339 instant after which test numbers are refused; required in production when test numbers are set"),
        Setting("PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS", "(none: /v2 endpoints off)", "Twilio Verify v2-compatible API (/v2/Services…) credentials for HTTP Basic auth: ACxxx:auth_token and SKxxx:secret@ACxxx pairs, comma-separated (docs/TWILIO_COMPAT.md)", secret: true),
        Setting("PHONE_VERIFY_TWILIO_COMPAT_CUSTOM_CODE_ACCOUNTS", "(none)", "account SIDs (AC…) of PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS whose services may use CustomCode, comma-separated; a custom code is chosen by the caller, so allow only accounts you trust with any number (docs/TWILIO_COMPAT.md)"),
        Setting("PHONE_VERIFY_ADMIN_API_KEYS", "(none)", "comma-separated server-to-server keys with every scope: /v1/admin/…, /v1/credentials/introspect, /metrics (Authorization: Bearer KEY)", secret: true),
        Setting("PHONE_VERIFY_INTROSPECTION_API_KEYS", "(none)", "comma-separated keys that may only introspect and redeem credentials (POST /v1/credentials/introspect): the main auth server's", secret: true),
        Setting("PHONE_VERIFY_SCOPED_API_KEYS", "(none)", "keys with chosen scopes, SCOPE[+SCOPE…]=KEY,… e.g. metrics=KEY1,factors+lockouts=KEY2; scopes: introspect, factors, fraud, lockouts, metrics, read (docs/OPERATIONS.md)", secret: true),
        Setting("PHONE_VERIFY_GATEWAYS", "console", "ordered failover list of SMS gateways: console, twilio, vonage, webhook"),
        Setting("PHONE_VERIFY_PUBLIC_URL", "the issuer", "public base URL vendors call back (status callbacks, delivery receipts)"),
        Setting("PHONE_VERIFY_TWILIO_BASE_URL", "https://api.twilio.com", "Twilio API base URL (point it at a sandbox or a local fake)"),
        Setting("PHONE_VERIFY_TWILIO_ACCOUNT_SID", "(none)", "Twilio account SID (AC…)"),
        Setting("PHONE_VERIFY_TWILIO_AUTH_TOKEN", "(none)", "Twilio auth token (also checks X-Twilio-Signature of status callbacks)", secret: true),
        Setting("PHONE_VERIFY_TWILIO_FROM", "(none)", "sender number (E.164) or Messaging Service SID (MG…)"),
        Setting("PHONE_VERIFY_VONAGE_BASE_URL", "https://rest.nexmo.com", "Vonage SMS API base URL"),
        Setting("PHONE_VERIFY_VONAGE_API_KEY", "(none)", "Vonage API key"),
        Setting("PHONE_VERIFY_VONAGE_API_SECRET", "(none)", "Vonage API secret", secret: true),
        Setting("PHONE_VERIFY_VONAGE_FROM", "(none)", "Vonage sender id or number"),
        Setting("PHONE_VERIFY_VONAGE_CALLBACK_TOKEN", "(none)", "secret token in the delivery-receipt URL passed to Vonage; receipts without it get 403", secret: true),
        Setting("PHONE_VERIFY_WEBHOOK_URL", "(none)", "generic webhook gateway URL (JSON, Standard Webhooks signature)"),
        Setting("PHONE_VERIFY_WEBHOOK_SECRET", "(none)", "Standard Webhooks secret (whsec_…) for the webhook gateway", secret: true),
        Setting("PHONE_VERIFY_GATEWAY_TIMEOUT", "10", "seconds one vendor call may take in all"),
        Setting("PHONE_VERIFY_GATEWAY_CONNECT_TIMEOUT", "3", "seconds to connect to a vendor"),
        Setting("PHONE_VERIFY_CIRCUIT_FAILURES", "5", "consecutive failures that open a gateway's circuit breaker"),
        Setting("PHONE_VERIFY_CIRCUIT_COOLDOWN", "30", "seconds before an open circuit lets one trial message through"),
        Setting("PHONE_VERIFY_DELIVERY_THREADS", "4", "threads sending outbox messages"),
        Setting("PHONE_VERIFY_DELIVERY_MAX_ATTEMPTS", "8", "tries per message before it is marked failed (it also fails when its code expires)"),
        Setting("PHONE_VERIFY_APP_NAME", "PhoneVerify", "name in the SMS text"),
        Setting("PHONE_VERIFY_OTP_DOMAIN", "(none)", "adds the origin-bound line \"@domain #code\" to messages"),
        Setting("PHONE_VERIFY_ANDROID_APP_HASH", "(none)", "11-character Android SMS Retriever app hash added to messages"),
        Setting("PHONE_VERIFY_TEMPLATES_FILE", "(none)", "JSON object of message templates by language, e.g. {\"en\": \"{app}: {code}\"} (variables {code}, {app}, {minutes})"),
        Setting("PHONE_VERIFY_AUTH_CORE_JWKS_URL", "(none)", "the main auth server's JWKS URL (session tokens for MFA)"),
        Setting("PHONE_VERIFY_AUTH_CORE_JWKS_FILE", "(none)", "the main auth server's JWKS as a file"),
        Setting("PHONE_VERIFY_AUTH_CORE_HS256_SECRET", "(none)", "shared HS256 secret of the main auth server's session tokens", secret: true),
        Setting("PHONE_VERIFY_AUTH_CORE_ISSUER", "(none)", "required iss of session tokens (set it in production)"),
        Setting("PHONE_VERIFY_AUTH_CORE_AUDIENCE", "(none)", "required aud of session tokens (set it in production)"),
        Setting("PHONE_VERIFY_AUTH_CORE_LEEWAY", "30", "seconds of clock skew allowed on exp, nbf and iat"),
        Setting("PHONE_VERIFY_AUTH_CORE_JWKS_MIN_REFRESH", "30", "minimum seconds between JWKS fetches triggered by unknown key ids"),
        Setting("PHONE_VERIFY_MAX_FACTORS", "10", "phone factors per user"),
        Setting("PHONE_VERIFY_STEP_UP_MAX_AGE", "600", "seconds a step-up counts as recent for deleting a factor"),
        Setting("PHONE_VERIFY_TRUSTED_PROXIES", "(none)", "CIDRs whose X-Forwarded-For is believed, comma-separated"),
        Setting("PHONE_VERIFY_CORS_ORIGINS", "(none)", "browser origins allowed to call /v1/verifications and /v1/mfa directly (CORS), comma-separated, or *"),
        Setting("PHONE_VERIFY_HTTP_THREADS", "64", "HTTP worker threads (each waits while its request's transaction commits: size for requests in flight, not cores)"),
        Setting("PHONE_VERIFY_MAX_CONNECTIONS", "4096", "concurrent connections accepted"),
        Setting("PHONE_VERIFY_LOG_LEVEL", "info", "debug, info, warning or error"),
        Setting("PHONE_VERIFY_RETENTION", "86400", "seconds ended verifications, sent messages, unmatched delivery receipts and expired redeemed credentials are kept before purging (idempotency records: at least the 24 h Idempotency-Key window)"),
    ]

    public static func named(_ name: String) -> Setting? { all.first { $0.name == name } }

    /// The text of `phone-verify --help`.
    public static var helpText: String {
        var lines = [
            "phone-verify — self-hosted phone OTP verification",
            "",
            "Usage: phone-verify [serve]            run the service (default)",
            "       phone-verify migrate            apply database migrations and exit",
            "       phone-verify backup FILE        a consistent copy of the SQLite database while it runs",
            "       phone-verify config check       validate the configuration, print effective settings (secrets redacted)",
            "       phone-verify keys list | rotate | retire KID",
            "                                       signing keys: rotation keeps old keys in JWKS until their credentials expire",
            "       phone-verify phone parse NUMBER [--region XX]",
            "                                       show how a number is parsed (JSON)",
            "       phone-verify fraud list | allow KEY | block KEY | clear KEY",
            "                                       SMS-pumping guard per prefix:+DIGITS or country:XX",
            "       phone-verify lockout list [NUMBER] | clear NUMBER",
            "                                       failed-check lockouts per number and requester; clear lifts a number's",
            "       phone-verify --help | --version",
            "",
            "Settings (environment variables, or KEY=VALUE lines in PHONE_VERIFY_CONFIG_FILE):",
        ]
        let width = (all.map(\.name.count).max() ?? 0) + 2
        for setting in all {
            lines.append("  " + setting.name.padding(toLength: width, withPad: " ", startingAt: 0) + "default: " + setting.defaultValue)
            lines.append("  " + String(repeating: " ", count: width) + setting.help)
        }
        return lines.joined(separator: "\n")
    }
}

import Foundation
