import API
import Foundation
import Gateways
import Telemetry
import TwilioCompatAPI
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
    /// `/dev/…` answers every client, not only loopback ones (`Settings.devExpose`).
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
    public var signingAlgorithm = "ES256"
    public var codeSecret: String?
    public var policy = VerificationPolicy()
    /// Ranges declared valid beyond libphonenumber's metadata (Configuration+NumberRanges).
    public var numberRanges: [NumberRange] = []
    /// `PHONE_VERIFY_DEFAULT_REGION`: the console's region for national numbers.
    public var defaultRegion: String?
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
    /// The operator console (`/console`) and its sessions on the admin routes.
    public var console = true
    /// Seconds of inactivity that end an operator console session.
    public var consoleIdleTimeout = 900
    public var consoleSecureCookie = false
    public var limits = RateLimits.defaults
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
    public var twilio: TwilioSettings?
    public var vonage: VonageSettings?
    public var webhook: WebhookSettings?
    /// WhatsApp and voice gateway chains and their vendors (Configuration+Channels).
    public var channelGateways = ChannelGatewaySettings()
    /// The events receiver (docs/EVENTS.md); nil: events are off and nothing is written.
    public var events: EventSettings?
    public var gatewayTimeout = 10.0
    public var gatewayConnectTimeout = 3.0
    public var circuitFailures = 5
    public var circuitCooldown = 30
    public var deliveryThreads = 4
    public var deliveryMaxAttempts = 8
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
        public var leeway = 30
        public var jwksMinRefresh = 30
        public var isConfigured: Bool { jwksURL != nil || jwksFile != nil || hs256Secret != nil }
    }

    public struct TwilioSettings: Sendable { public var baseURL, accountSID, authToken, from: String }
    public struct VonageSettings: Sendable { public var baseURL, apiKey, apiSecret, from: String; public var callbackToken: String? }
    public struct WebhookSettings: Sendable { public var url, secret: String }
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
        var reader = SettingReader(values: values)
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
        if mode == .production { reader.checkProduction(self) }
        unknownVariables = values.keys.filter { Settings.named($0) == nil }.sorted()
        maskedSettings = ConfigCheckCommand.masked(values)
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
}
