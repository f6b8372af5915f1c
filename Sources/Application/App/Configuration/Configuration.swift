import API
import Foundation
import Gateways
import SettingsTable
import Telemetry
import TwilioCompatAPI
import Vendors
import VerifyCore

/// A configuration problem, reported at start-up with the variable's name.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let problems: [String]
    public var description: String { problems.joined(separator: "\n") }
}

/// The effective, validated configuration.
public struct Configuration: Sendable, VendorConfiguration {
    public enum Mode: String, Sendable { case development, production }

    public var mode: Mode = Settings.mode.standard
    /// `/dev/…` answers every client, not only loopback ones (`Settings.devExpose`).
    public var devExpose: Bool = Settings.devExpose.standard
    public var listenHost: String = Settings.listen.standard.host
    public var listenPort: Int = Settings.listen.standard.port
    public var dataDirectory: String = Settings.dataDirectory.standard
    public var sqlitePath: String = Settings.dataDirectory.standard + "/phone-verify.db"
    public var sqliteSynchronous: String = Settings.sqliteSynchronous.standard
    /// `postgres://…` when the store is PostgreSQL (then `sqlitePath` is unused).
    public var postgresURL: String?
    public var postgresPoolSize: Int = Settings.postgresPoolSize.standard
    public var issuer: String?
    public var audience: String = Settings.audience.standard
    public var credentialTTL: Int = Settings.credentialTTL.standard
    public var signingKeyFile: String?
    /// Seconds between rereads of the store's signing keys (and of the key file after a rotation).
    public var keyRefreshSeconds: Int = Settings.keyRefresh.standard
    public var signingAlgorithm: String = Settings.signingAlgorithm.standard
    public var codeSecret: String?
    public var policy = VerificationPolicy()
    /// Ranges declared valid beyond libphonenumber's metadata (Configuration+NumberRanges).
    public var numberRanges: [NumberRange] = []
    /// `PHONE_VERIFY_DEFAULT_REGION`: the console's region for national numbers.
    public var defaultRegion: String?
    public var gateways: [String] = Settings.gateways.standard
    public var appName: String = Settings.appName.standard
    public var otpDomain: String?
    public var trustedProxies: [CIDR] = Settings.trustedProxies.standard
    /// Browser origins allowed to call the client endpoints (CORS); empty: none.
    public var corsOrigins: [String] = Settings.corsOrigins.standard
    /// A request's thread waits while its transaction commits (SQLite group commit) or while its
    /// PostgreSQL round trips run, so threads must cover the requests in flight, not the cores:
    /// with 2, at most 2 writes were in flight (group commit had nothing to group) and
    /// connections queued behind a waiting thread.
    public var httpThreads: Int = Settings.httpThreads.standard
    public var maxConnections: Int = Settings.maxConnections.standard
    public var logLevel: LogLevel = Settings.logLevel.standard
    public var retention: Int = Settings.retention.standard
    /// The operator console (`/console`) and its sessions on the admin routes.
    public var console: Bool = Settings.console.standard
    /// Seconds of inactivity that end an operator console session.
    public var consoleIdleTimeout: Int = Settings.consoleIdleTimeout.standard
    public var consoleSecureCookie: Bool = Settings.consoleSecureCookie.standard
    /// Seconds in-flight requests may take to finish at shutdown.
    public var shutdownGrace: Int = Settings.shutdownGrace.standard
    public var limits: RateLimits = Settings.limits.standard
    public var fraud = FraudPolicy()
    public var testNumbers = TestNumbers()
    /// Proof before an SMS is paid for: policy and providers (Configuration+Challenges).
    public var challenges = ChallengeSettings()
    /// Server-to-server keys by scope (admin, introspection, scoped: Configuration+APIKeys).
    public var apiKeys = APIKeyring()
    /// Each key list's keys by setting name, for the production strength rule only.
    var apiKeyLists: [String: [String]] = [:]
    /// Credentials of the Twilio-compatible API; nil: its endpoints are off.
    public var twilioCompatCredentials: TwilioCompatCredentials?
    /// Accounts of the Twilio-compatible API allowed custom codes; empty: none.
    public var twilioCompatCustomCodeAccounts: Set<String> = []
    public var publicURL: String?
    /// Every vendor of `VendorRegistry`, read from its own settings (parts the gateway lists do
    /// not name are nil).
    public var vendors: [any Vendor] = []
    /// WhatsApp and voice gateway chains and their vendors (Configuration+Channels).
    public var channelGateways = ChannelGatewaySettings()
    /// The events receiver (docs/EVENTS.md); nil: events are off and nothing is written.
    public var events: EventSettings?
    public var gatewayTimeout = Double(Settings.gatewayTimeout.standard)
    public var gatewayConnectTimeout = Double(Settings.gatewayConnectTimeout.standard)
    public var circuitFailures: Int = Settings.circuitFailures.standard
    public var circuitCooldown: Int = Settings.circuitCooldown.standard
    public var deliveryThreads: Int = Settings.deliveryThreads.standard
    public var deliveryMaxAttempts: Int = Settings.deliveryMaxAttempts.standard
    public var androidAppHash: String?
    public var templateOverrides: [String: String] = [:]
    /// The voice call's lines per language: the built-in ones with the operator's on top.
    public var voiceLines: [String: VoiceLines] = VoiceScriptComposer.builtIn
    public var authCore = AuthCoreSettings()
    public var mfa = MFAPolicy()

    public struct AuthCoreSettings: Sendable {
        public var jwksURL: String?
        public var jwksFile: String?
        public var hs256Secret: String?
        public var issuer: String?
        public var audience: String?
        public var leeway: Int = Settings.authCoreLeeway.standard
        public var jwksMinRefresh: Int = Settings.authCoreJWKSMinRefresh.standard
        public var isConfigured: Bool { jwksURL != nil || jwksFile != nil || hs256Secret != nil }
    }

    /// Unknown PHONE_VERIFY_* variables (likely typos), warned about at start-up.
    public var unknownVariables: [String] = []
    /// Every setting with secrets masked, as `config check` prints them (the console shows it).
    public var maskedSettings: [(name: String, value: String)] = []

    public init() {}

    /// Reads the configuration file named by PHONE_VERIFY_CONFIG_FILE (if any) and then the
    /// environment, validates everything, and reports every problem at once.
    public static func load(environment: [String: String]) throws -> Configuration {
        try Configuration(values: values(environment: environment))
    }

    /// The raw values: the file's, then the environment's `PHONE_VERIFY_*` variables over them.
    static func values(environment: [String: String]) throws -> [String: String] {
        var values: [String: String] = [:]
        if let file = environment[Settings.configFile.name], !file.isEmpty {
            values = try ConfigFile.read(path: file)
        }
        for (key, value) in environment where key.hasPrefix(Settings.prefix) { values[key] = value }
        return values
    }

    /// Each section reads its own settings (`Configuration+Server.swift`, …) in the order
    /// problems have always been reported; then production's rules, from the settings table.
    init(values: [String: String]) throws {
        var reader = SettingReader(values: values, listed: { Settings.named($0) != nil })
        readServer(&reader)
        readCredentials(&reader)
        readCodes(&reader)
        readNumberRanges(&reader)
        readGateways(&reader)
        readChannels(&reader)
        readEvents(&reader)
        readMessages(&reader)
        readMFA(&reader)
        readOperations(&reader)
        readLimits(&reader)
        readChallenges(&reader)
        readAPIKeys(&reader)
        readTwilioCompat(&reader)
        if mode == .production { reader.checkProduction(self, table: Settings.all) }
        unknownVariables = values.keys.filter { Settings.named($0) == nil }.sorted()
        maskedSettings = ConfigCheckCommand.masked(values)
        if !reader.problems.isEmpty { throw ConfigurationError(problems: reader.problems) }
    }

    /// "https://x.example/" → "https://x.example" (OIDC Discovery §4 does the same before
    /// appending a path to an issuer).
    static func withoutTrailingSlashes(_ url: String) -> String {
        SettingType<String>.withoutTrailingSlashes(url)
    }

    /// "2027-01-31T00:00:00Z" or with an offset / fractional seconds.
    static func parseInstant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
