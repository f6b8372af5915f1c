import Gateways
import SettingsTable

/// The gateways section of the settings table (read by `Configuration.readGateways`).
extension Settings {
    public static let gateways = Setting<[String]>(
        "PHONE_VERIFY_GATEWAYS", .gateways, .gateways, defaultsTo: ["console"],
        "ordered failover list of SMS gateways: console, twilio, vonage, webhook",
        production: .check { $0.gateways.contains("console") ? "the console sink is refused in production mode" : nil })

    public static let publicURL = Setting<String>(
        "PHONE_VERIFY_PUBLIC_URL", .gateways, .baseURL, default: "the issuer",
        "public base URL vendors call back (status callbacks, delivery receipts)")

    public static let twilioBaseURL = Setting<String>(
        "PHONE_VERIFY_TWILIO_BASE_URL", .gateways, .url, defaultsTo: "https://api.twilio.com",
        "Twilio API base URL (point it at a sandbox or a local fake)",
        production: .httpsOrLoopback { $0.twilio?.baseURL ?? $0.channelGateways.twilioWhatsApp?.baseURL ?? $0.channelGateways.twilioVoice?.baseURL })

    public static let twilioAccountSID = Setting<String>(
        "PHONE_VERIFY_TWILIO_ACCOUNT_SID", .gateways, .text, default: "(none)",
        "Twilio account SID (AC…)")

    public static let twilioAuthToken = Setting<String>(
        "PHONE_VERIFY_TWILIO_AUTH_TOKEN", .gateways, .text, default: "(none)",
        "Twilio auth token (also checks X-Twilio-Signature of status callbacks)",
        secret: true)

    public static let twilioFrom = Setting<String>(
        "PHONE_VERIFY_TWILIO_FROM", .gateways, .text, default: "(none)",
        "sender number (E.164) or Messaging Service SID (MG…)")

    public static let vonageBaseURL = Setting<String>(
        "PHONE_VERIFY_VONAGE_BASE_URL", .gateways, .url, defaultsTo: "https://rest.nexmo.com",
        "Vonage SMS API base URL",
        production: .httpsOrLoopback { $0.vonage?.baseURL })

    public static let vonageAPIKey = Setting<String>(
        "PHONE_VERIFY_VONAGE_API_KEY", .gateways, .text, default: "(none)",
        "Vonage API key")

    public static let vonageAPISecret = Setting<String>(
        "PHONE_VERIFY_VONAGE_API_SECRET", .gateways, .text, default: "(none)",
        "Vonage API secret",
        secret: true)

    public static let vonageFrom = Setting<String>(
        "PHONE_VERIFY_VONAGE_FROM", .gateways, .text, default: "(none)",
        "Vonage sender id or number")

    public static let vonageCallbackToken = Setting<String>(
        "PHONE_VERIFY_VONAGE_CALLBACK_TOKEN", .gateways, .text, default: "(none)",
        "secret token in the delivery-receipt URL passed to Vonage; receipts without it get 403",
        secret: true)

    public static let webhookURL = Setting<String>(
        "PHONE_VERIFY_WEBHOOK_URL", .gateways, .url, default: "(none)",
        "generic webhook gateway URL (JSON, Standard Webhooks signature)",
        production: .httpsOrLoopback { $0.webhook?.url })

    public static let webhookSecret = Setting<WebhookSecret>(
        "PHONE_VERIFY_WEBHOOK_SECRET", .gateways, .webhookSecret, default: "(none)",
        "Standard Webhooks secret (whsec_…) for the webhook gateway",
        secret: true, production: .check(Configuration.weakWebhookSecret))

    public static let gatewayTimeout = Setting<Int>(
        "PHONE_VERIFY_GATEWAY_TIMEOUT", .gateways, .int(1...120), defaultsTo: 10,
        "seconds one vendor call may take in all")

    public static let gatewayConnectTimeout = Setting<Int>(
        "PHONE_VERIFY_GATEWAY_CONNECT_TIMEOUT", .gateways, .int(1...60), defaultsTo: 3,
        "seconds to connect to a vendor")

    public static let circuitFailures = Setting<Int>(
        "PHONE_VERIFY_CIRCUIT_FAILURES", .gateways, .int(1...1000), defaultsTo: 5,
        "consecutive failures that open a gateway's circuit breaker")

    public static let circuitCooldown = Setting<Int>(
        "PHONE_VERIFY_CIRCUIT_COOLDOWN", .gateways, .int(1...3600), defaultsTo: 30,
        "seconds before an open circuit lets one trial message through")

    public static let deliveryThreads = Setting<Int>(
        "PHONE_VERIFY_DELIVERY_THREADS", .gateways, .int(1...64), defaultsTo: 4,
        "threads sending outbox messages")

    public static let deliveryMaxAttempts = Setting<Int>(
        "PHONE_VERIFY_DELIVERY_MAX_ATTEMPTS", .gateways, .int(1...100), defaultsTo: 8,
        "tries per message before it is marked failed (it also fails when its code expires)")

    static let gatewaysSection: [any SettingEntry] = [gateways, publicURL, twilioBaseURL, twilioAccountSID, twilioAuthToken, twilioFrom, vonageBaseURL, vonageAPIKey, vonageAPISecret, vonageFrom, vonageCallbackToken, webhookURL, webhookSecret, gatewayTimeout, gatewayConnectTimeout, circuitFailures, circuitCooldown, deliveryThreads, deliveryMaxAttempts]
}

extension SettingType where Value == [String] {
    /// The gateways that exist, each at most once, at least one.
    static var gateways: Self {
        let known = ["console", "twilio", "vonage", "webhook"]
        return Self("ordered gateway names") { text in
            let gateways = items(text)
            var problems = gateways.filter { !known.contains($0) }.map {
                "unknown gateway \"\($0)\" (known: \(known.joined(separator: ", ")))"
            }
            if Set(gateways).count != gateways.count || gateways.isEmpty {
                problems.append("must list each gateway at most once, and at least one")
            }
            return (gateways, problems)
        }
    }
}

extension SettingType where Value == String {
    /// A base URL paths are appended to, so a trailing "/" would double (not checked further).
    static var baseURL: Self { Self("base URL") { (Configuration.withoutTrailingSlashes($0), []) } }
}

extension SettingType where Value == WebhookSecret {
    static var webhookSecret: Self {
        Self("whsec_ + base64 key, or any string") { text in
            let secret = WebhookSecret(text)
            return (secret, secret.key == nil ? ["\(WebhookSecret.prefix) must be followed by the key in base64"] : [])
        }
    }
}
