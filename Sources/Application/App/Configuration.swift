import API
import Foundation
import Telemetry
import VerifyCore

/// A configuration problem, reported at start-up with the variable's name.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let problems: [String]
    public var description: String { problems.joined(separator: "\n") }
}

/// The effective, validated configuration.
public struct Configuration: Sendable {
    public enum Mode: String, Sendable { case development, production }

    public var mode: Mode = .development
    /// `/dev/…` answers every client, not only loopback ones (PHONE_VERIFY_DEV_EXPOSE).
    public var devExpose = false
    public var listenHost = "127.0.0.1"
    public var listenPort = 8080
    public var dataDirectory = "./data"
    public var sqlitePath = "./data/phone-verify.db"
    public var sqliteSynchronous = "NORMAL"
    /// `postgres://…` when the store is PostgreSQL (then `sqlitePath` is unused).
    public var postgresURL: String?
    public var postgresPoolSize = 16
    public var issuer: String?
    public var audience = "main-auth"
    public var credentialTTL = 300
    public var signingKeyFile: String?
    /// Seconds between rereads of the store's signing keys (and of the key file after a rotation).
    public var keyRefreshSeconds = 30
    public var signingAlgorithm = "EdDSA"
    public var codeSecret: String?
    public var policy = VerificationPolicy()
    public var gateways = ["console"]
    public var appName = "PhoneVerify"
    public var otpDomain: String?
    public var trustedProxies: [CIDR] = []
    /// Browser origins allowed to call the client endpoints (CORS); empty: none.
    public var corsOrigins: [String] = []
    /// A request's thread waits while its transaction commits (SQLite group commit) or while its
    /// PostgreSQL round trips run, so threads must cover the requests in flight, not the cores:
    /// with 2, at most 2 writes were in flight (group commit had nothing to group) and
    /// connections queued behind a waiting thread.
    public var httpThreads = 64
    public var maxConnections = 4096
    public var logLevel = LogLevel.info
    public var retention = 86_400
    public var limits = RateLimits.defaults
    public var fraud = FraudPolicy()
    public var testNumbers = TestNumbers()
    /// Server-to-server keys by scope (admin, introspection, scoped: Configuration+APIKeys).
    public var apiKeys = APIKeyring()
    /// Credentials of the Twilio-compatible API; nil: its endpoints are off.
    public var twilioCompatCredentials: TwilioCompatCredentials?
    /// Accounts of the Twilio-compatible API allowed custom codes; empty: none.
    public var twilioCompatCustomCodeAccounts: Set<String> = []
    public var publicURL: String?
    public var twilio: TwilioSettings?
    public var vonage: VonageSettings?
    public var webhook: WebhookSettings?
    public var gatewayTimeout = 10.0
    public var gatewayConnectTimeout = 3.0
    public var circuitFailures = 5
    public var circuitCooldown = 30
    public var deliveryThreads = 4
    public var deliveryMaxAttempts = 8
    public var androidAppHash: String?
    public var templateOverrides: [String: String] = [:]
    public var authCore = AuthCoreSettings()
    public var mfa = MFAPolicy()

    public struct AuthCoreSettings: Sendable {
        public var jwksURL: String?
        public var jwksFile: String?
        public var hs256Secret: String?
        public var issuer: String?
        public var audience: String?
        public var leeway = 30
        public var jwksMinRefresh = 30
        public var isConfigured: Bool { jwksURL != nil || jwksFile != nil || hs256Secret != nil }
    }

    public struct TwilioSettings: Sendable { public var baseURL, accountSID, authToken, from: String }
    public struct VonageSettings: Sendable { public var baseURL, apiKey, apiSecret, from: String; public var callbackToken: String? }
    public struct WebhookSettings: Sendable { public var url, secret: String }
    /// Unknown PHONE_VERIFY_* variables (likely typos), warned about at start-up.
    public var unknownVariables: [String] = []

    public init() {}

    /// Reads the configuration file named by PHONE_VERIFY_CONFIG_FILE (if any) and then the
    /// environment, validates everything, and reports every problem at once.
    public static func load(environment: [String: String]) throws -> Configuration {
        var values: [String: String] = [:]
        if let file = environment["PHONE_VERIFY_CONFIG_FILE"], !file.isEmpty {
            values = try ConfigFile.read(path: file)
        }
        for (key, value) in environment where key.hasPrefix("PHONE_VERIFY_") { values[key] = value }
        return try Configuration(values: values)
    }

    init(values: [String: String]) throws {
        var reader = SettingReader(values: values)
        mode = reader.choice("PHONE_VERIFY_MODE", Mode.self) ?? .development
        devExpose = reader.flag("PHONE_VERIFY_DEV_EXPOSE") ?? false
        if let listen = reader.string("PHONE_VERIFY_LISTEN") {
            if let (host, port) = Self.splitHostPort(listen) {
                listenHost = host
                listenPort = port
            } else {
                reader.problem("PHONE_VERIFY_LISTEN", "must be host:port with a port 0–65535, e.g. 127.0.0.1:8080")
            }
        }
        dataDirectory = reader.string("PHONE_VERIFY_DATA_DIR") ?? "./data"
        sqlitePath = dataDirectory + "/phone-verify.db"
        if let url = reader.string("PHONE_VERIFY_DATABASE_URL") {
            if url.hasPrefix("sqlite:") {
                let path = String(url.dropFirst("sqlite:".count)).replacingOccurrences(of: "//", with: "", options: .anchored)
                if path.isEmpty { reader.problem("PHONE_VERIFY_DATABASE_URL", "sqlite: needs a path") } else { sqlitePath = path }
            } else if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
                postgresURL = url
            } else {
                reader.problem("PHONE_VERIFY_DATABASE_URL", "must be sqlite:PATH or postgres://user:password@host:port/database")
            }
        }
        sqliteSynchronous = reader.string("PHONE_VERIFY_SQLITE_SYNCHRONOUS")?.uppercased() ?? "NORMAL"
        if !["NORMAL", "FULL", "EXTRA"].contains(sqliteSynchronous) {
            reader.problem("PHONE_VERIFY_SQLITE_SYNCHRONOUS", "must be NORMAL, FULL or EXTRA")
        }
        postgresPoolSize = reader.int("PHONE_VERIFY_POSTGRES_POOL_SIZE", in: 1...256) ?? postgresPoolSize
        issuer = reader.string("PHONE_VERIFY_ISSUER")
        audience = reader.string("PHONE_VERIFY_AUDIENCE") ?? audience
        credentialTTL = reader.int("PHONE_VERIFY_CREDENTIAL_TTL", in: 30...86_400) ?? credentialTTL
        signingKeyFile = reader.string("PHONE_VERIFY_SIGNING_KEY_FILE")
        keyRefreshSeconds = reader.int("PHONE_VERIFY_KEY_REFRESH", in: 1...3600) ?? keyRefreshSeconds
        signingAlgorithm = reader.string("PHONE_VERIFY_SIGNING_ALGORITHM") ?? signingAlgorithm
        if !["EdDSA", "ES256", "RS256"].contains(signingAlgorithm) {
            reader.problem("PHONE_VERIFY_SIGNING_ALGORITHM", "must be EdDSA, ES256 or RS256")
        }
        codeSecret = reader.string("PHONE_VERIFY_CODE_SECRET")
        if let secret = codeSecret, secret.utf8.count < 32 {
            reader.problem("PHONE_VERIFY_CODE_SECRET", "must be at least 32 characters (e.g. openssl rand -hex 32)")
        }
        policy.codeLength = reader.int("PHONE_VERIFY_CODE_LENGTH", in: CodeGenerator.allowedLengths) ?? policy.codeLength
        policy.codeTTL = reader.int("PHONE_VERIFY_CODE_TTL", in: 30...600) ?? policy.codeTTL
        policy.maxAttempts = reader.int("PHONE_VERIFY_MAX_ATTEMPTS", in: 1...100) ?? policy.maxAttempts
        policy.maxSends = reader.int("PHONE_VERIFY_MAX_SENDS", in: 1...20) ?? policy.maxSends
        policy.resendCooldown = reader.int("PHONE_VERIFY_RESEND_COOLDOWN", in: 0...3600) ?? policy.resendCooldown
        if let types = reader.list("PHONE_VERIFY_ALLOWED_LINE_TYPES") {
            let parsed = types.compactMap(LineType.init(rawValue:))
            if parsed.count != types.count || parsed.isEmpty {
                reader.problem("PHONE_VERIFY_ALLOWED_LINE_TYPES", "must list line types from: " + LineType.allCases.map(\.rawValue).joined(separator: ", "))
            } else {
                policy.allowedLineTypes = Set(parsed)
            }
        }
        policy.regionAllowList = reader.regions("PHONE_VERIFY_REGION_ALLOW_LIST")
        policy.regionDenyList = reader.regions("PHONE_VERIFY_REGION_DENY_LIST")
        gateways = reader.list("PHONE_VERIFY_GATEWAYS") ?? gateways
        for gateway in gateways where !["console", "twilio", "vonage", "webhook"].contains(gateway) {
            reader.problem("PHONE_VERIFY_GATEWAYS", "unknown gateway \"\(gateway)\" (known: console, twilio, vonage, webhook)")
        }
        if Set(gateways).count != gateways.count || gateways.isEmpty {
            reader.problem("PHONE_VERIFY_GATEWAYS", "must list each gateway at most once, and at least one")
        }
        // A base URL: paths are appended to it, so a trailing "/" would double.
        publicURL = reader.string("PHONE_VERIFY_PUBLIC_URL").map(Self.withoutTrailingSlashes)
        if gateways.contains("twilio") {
            let sid = reader.required("PHONE_VERIFY_TWILIO_ACCOUNT_SID", for: "the twilio gateway")
            let token = reader.required("PHONE_VERIFY_TWILIO_AUTH_TOKEN", for: "the twilio gateway")
            let from = reader.required("PHONE_VERIFY_TWILIO_FROM", for: "the twilio gateway")
            twilio = TwilioSettings(
                baseURL: reader.url("PHONE_VERIFY_TWILIO_BASE_URL") ?? "https://api.twilio.com", accountSID: sid, authToken: token, from: from)
        }
        if gateways.contains("vonage") {
            let key = reader.required("PHONE_VERIFY_VONAGE_API_KEY", for: "the vonage gateway")
            let secret = reader.required("PHONE_VERIFY_VONAGE_API_SECRET", for: "the vonage gateway")
            let from = reader.required("PHONE_VERIFY_VONAGE_FROM", for: "the vonage gateway")
            vonage = VonageSettings(
                baseURL: reader.url("PHONE_VERIFY_VONAGE_BASE_URL") ?? "https://rest.nexmo.com", apiKey: key, apiSecret: secret,
                from: from, callbackToken: reader.string("PHONE_VERIFY_VONAGE_CALLBACK_TOKEN"))
        }
        if gateways.contains("webhook") {
            let url = reader.url("PHONE_VERIFY_WEBHOOK_URL") ?? { reader.problem("PHONE_VERIFY_WEBHOOK_URL", "is required by the webhook gateway"); return "" }()
            webhook = WebhookSettings(url: url, secret: reader.required("PHONE_VERIFY_WEBHOOK_SECRET", for: "the webhook gateway"))
            if let secret = webhook?.secret, secret.hasPrefix("whsec_"), Data(base64Encoded: String(secret.dropFirst(6))) == nil {
                reader.problem("PHONE_VERIFY_WEBHOOK_SECRET", "whsec_ must be followed by the key in base64")
            }
        }
        gatewayTimeout = Double(reader.int("PHONE_VERIFY_GATEWAY_TIMEOUT", in: 1...120) ?? 10)
        gatewayConnectTimeout = Double(reader.int("PHONE_VERIFY_GATEWAY_CONNECT_TIMEOUT", in: 1...60) ?? 3)
        circuitFailures = reader.int("PHONE_VERIFY_CIRCUIT_FAILURES", in: 1...1000) ?? circuitFailures
        circuitCooldown = reader.int("PHONE_VERIFY_CIRCUIT_COOLDOWN", in: 1...3600) ?? circuitCooldown
        deliveryThreads = reader.int("PHONE_VERIFY_DELIVERY_THREADS", in: 1...64) ?? deliveryThreads
        deliveryMaxAttempts = reader.int("PHONE_VERIFY_DELIVERY_MAX_ATTEMPTS", in: 1...100) ?? deliveryMaxAttempts
        appName = reader.string("PHONE_VERIFY_APP_NAME") ?? appName
        otpDomain = reader.string("PHONE_VERIFY_OTP_DOMAIN")
        androidAppHash = reader.string("PHONE_VERIFY_ANDROID_APP_HASH")
        if let file = reader.string("PHONE_VERIFY_TEMPLATES_FILE") {
            if let data = FileManager.default.contents(atPath: file),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: String]
            {
                templateOverrides = object
            } else {
                reader.problem("PHONE_VERIFY_TEMPLATES_FILE", "must name a readable JSON object of language → template strings")
            }
        }
        for problem in TemplateComposer.validate(overrides: templateOverrides, otpDomain: otpDomain, androidAppHash: androidAppHash) {
            reader.problem("PHONE_VERIFY_TEMPLATES_FILE", "(or the OTP domain / app hash): \(problem)")
        }
        authCore.jwksURL = reader.url("PHONE_VERIFY_AUTH_CORE_JWKS_URL")
        authCore.jwksFile = reader.string("PHONE_VERIFY_AUTH_CORE_JWKS_FILE")
        authCore.hs256Secret = reader.string("PHONE_VERIFY_AUTH_CORE_HS256_SECRET")
        if let secret = authCore.hs256Secret, secret.utf8.count < 32 {
            reader.problem("PHONE_VERIFY_AUTH_CORE_HS256_SECRET", "must be at least 32 characters")
        }
        authCore.issuer = reader.string("PHONE_VERIFY_AUTH_CORE_ISSUER")
        authCore.audience = reader.string("PHONE_VERIFY_AUTH_CORE_AUDIENCE")
        authCore.leeway = reader.int("PHONE_VERIFY_AUTH_CORE_LEEWAY", in: 0...300) ?? authCore.leeway
        authCore.jwksMinRefresh = reader.int("PHONE_VERIFY_AUTH_CORE_JWKS_MIN_REFRESH", in: 1...3600) ?? authCore.jwksMinRefresh
        mfa.maxFactors = reader.int("PHONE_VERIFY_MAX_FACTORS", in: 1...100) ?? mfa.maxFactors
        mfa.stepUpMaxAge = reader.int("PHONE_VERIFY_STEP_UP_MAX_AGE", in: 30...86_400) ?? mfa.stepUpMaxAge
        for text in reader.list("PHONE_VERIFY_TRUSTED_PROXIES") ?? [] {
            if let cidr = CIDR(text) { trustedProxies.append(cidr) } else {
                reader.problem("PHONE_VERIFY_TRUSTED_PROXIES", "\"\(text)\" is not a CIDR such as 10.0.0.0/8")
            }
        }
        corsOrigins = reader.list("PHONE_VERIFY_CORS_ORIGINS") ?? []
        for origin in corsOrigins where origin != "*" && !CORSPolicy.isOrigin(origin) {
            reader.problem("PHONE_VERIFY_CORS_ORIGINS", "\"\(origin)\" is not an origin such as https://app.example.com (or *)")
        }
        httpThreads = reader.int("PHONE_VERIFY_HTTP_THREADS", in: 1...256) ?? httpThreads
        maxConnections = reader.int("PHONE_VERIFY_MAX_CONNECTIONS", in: 16...65_536) ?? maxConnections
        if let level = reader.string("PHONE_VERIFY_LOG_LEVEL") {
            if let parsed = LogLevel(name: level) { logLevel = parsed } else {
                reader.problem("PHONE_VERIFY_LOG_LEVEL", "must be debug, info, warning or error")
            }
        }
        retention = reader.int("PHONE_VERIFY_RETENTION", in: 600...31_536_000) ?? retention
        if let text = reader.string("PHONE_VERIFY_LIMITS") {
            do { limits = try limits.overridden(by: text) } catch { reader.problem("PHONE_VERIFY_LIMITS", "has \(error)") }
        }
        limits.prefixDigits = reader.int("PHONE_VERIFY_PREFIX_DIGITS", in: 1...15)
        if let text = reader.string("PHONE_VERIFY_LOCKOUT_BACKOFF") {
            do { limits.lockoutBackoff = try RateLimits.parseBackoff(text) } catch { reader.problem("PHONE_VERIFY_LOCKOUT_BACKOFF", "has \(error)") }
        }
        if let onOff = reader.string("PHONE_VERIFY_FRAUD") {
            switch onOff.lowercased() {
            case "on", "true", "1": fraud.enabled = true
            case "off", "false", "0": fraud.enabled = false
            default: reader.problem("PHONE_VERIFY_FRAUD", "must be on or off")
            }
        }
        fraud.minSends = reader.int("PHONE_VERIFY_FRAUD_MIN_SENDS", in: 1...1_000_000) ?? fraud.minSends
        if let text = reader.string("PHONE_VERIFY_FRAUD_MIN_CONVERSION") {
            if let value = Double(text), (0...1).contains(value) { fraud.minConversion = value } else {
                reader.problem("PHONE_VERIFY_FRAUD_MIN_CONVERSION", "must be a number from 0 to 1")
            }
        }
        fraud.window = reader.int("PHONE_VERIFY_FRAUD_WINDOW", in: 300...86_400) ?? fraud.window
        if let text = reader.string("PHONE_VERIFY_TEST_NUMBERS") {
            do { testNumbers.codes = try TestNumbers.parse(text) } catch { reader.problem("PHONE_VERIFY_TEST_NUMBERS", "has \(error)") }
        }
        if let text = reader.string("PHONE_VERIFY_TEST_NUMBERS_EXPIRE_AT") {
            if let date = Self.parseInstant(text) { testNumbers.expiresAt = date } else {
                reader.problem("PHONE_VERIFY_TEST_NUMBERS_EXPIRE_AT", "must be an RFC 3339 instant such as 2027-01-31T00:00:00Z")
            }
        }
        readAPIKeys(&reader)
        readTwilioCompat(&reader)
        if mode == .production { checkProduction(&reader) }
        unknownVariables = values.keys.filter { Settings.named($0) == nil }.sorted()
        if !reader.problems.isEmpty { throw ConfigurationError(problems: reader.problems) }
    }

    /// "https://x.example/" → "https://x.example" (OIDC Discovery §4 does the same before
    /// appending a path to an issuer).
    static func withoutTrailingSlashes(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// "2027-01-31T00:00:00Z" or with an offset / fractional seconds.
    static func parseInstant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    static func splitHostPort(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65_535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }
}
