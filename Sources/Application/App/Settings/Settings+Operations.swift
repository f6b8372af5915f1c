import API
import SettingsTable
import Telemetry

/// The operations section of the settings table (read by `Configuration.readOperations`).
extension Settings {
    public static let trustedProxies = Setting<[CIDR]>(
        "PHONE_VERIFY_TRUSTED_PROXIES", .operations, .cidrs, defaultsTo: [], shown: "(none)",
        "CIDRs whose X-Forwarded-For is believed, comma-separated")

    public static let corsOrigins = Setting<[String]>(
        "PHONE_VERIFY_CORS_ORIGINS", .operations, .origins, defaultsTo: [], shown: "(none)",
        "browser origins allowed to call /v1/verifications and /v1/mfa directly (CORS), comma-separated, or *")

    public static let httpThreads = Setting<Int>(
        "PHONE_VERIFY_HTTP_THREADS", .operations, .int(1...256), defaultsTo: 64,
        "HTTP worker threads (each waits while its request's transaction commits: size for requests in flight, not cores)")

    public static let maxConnections = Setting<Int>(
        "PHONE_VERIFY_MAX_CONNECTIONS", .operations, .int(16...65_536), defaultsTo: 4096,
        "concurrent connections accepted")

    public static let logLevel = Setting<LogLevel>(
        "PHONE_VERIFY_LOG_LEVEL", .operations, .logLevel, defaultsTo: .info, shown: "info",
        "debug, info, warning or error")

    public static let retention = Setting<Int>(
        "PHONE_VERIFY_RETENTION", .operations, .int(600...31_536_000), defaultsTo: 86400,
        "seconds ended verifications, sent messages, unmatched delivery receipts and expired redeemed credentials are kept before purging (idempotency records: at least the 24 h Idempotency-Key window)")

    public static let console = Setting<Bool>(
        "PHONE_VERIFY_CONSOLE", .operations, .flag, defaultsTo: true, shown: "true",
        "false: no operator console (/console) and no console sessions on the admin routes (bearer keys only)")

    public static let consoleIdleTimeout = Setting<Int>(
        "PHONE_VERIFY_CONSOLE_IDLE_TIMEOUT", .operations, .int(1...86_400), defaultsTo: 900,
        "seconds without a request after which an operator console session ends (sign in again); sessions end 12 h after sign-in regardless")

    public static let consoleSecureCookie = Setting<Bool>(
        "PHONE_VERIFY_CONSOLE_SECURE_COOKIE", .operations, .flag, defaultsTo: false, shown: "false",
        "true: the console cookie is always Secure with the __Host- name, also for a browser on a loopback address without proxy headers (a TLS terminator on the same host that adds no X-Forwarded-*); false: Secure unless such a loopback peer")

    public static let shutdownGrace = Setting<Int>(
        "PHONE_VERIFY_SHUTDOWN_GRACE", .operations, .int(1...300), defaultsTo: 10,
        "seconds in-flight requests may take to finish after SIGTERM or SIGINT before the server closes their connections")

    static let operationsSection: [any SettingEntry] = [
        trustedProxies, corsOrigins, httpThreads, maxConnections, logLevel, retention, console, consoleIdleTimeout, consoleSecureCookie,
        shutdownGrace,
    ]
}

extension SettingType where Value == [CIDR] {
    static var cidrs: Self {
        Self("CIDRs") { text in
            let items = SettingType<[String]>.items(text)
            return (items.compactMap(CIDR.init), items.filter { CIDR($0) == nil }.map { "\"\($0)\" is not a CIDR such as 10.0.0.0/8" })
        }
    }
}

extension SettingType where Value == [String] {
    static var origins: Self {
        list("origins, or *") { origin in
            origin == "*" || CORSPolicy.isOrigin(origin) ? nil : "\"\(origin)\" is not an origin such as https://app.example.com (or *)"
        }
    }
}

extension SettingType where Value == LogLevel {
    static var logLevel: Self {
        checked("debug, info, warning or error", problem: "must be debug, info, warning or error") { LogLevel(name: $0) }
    }
}
