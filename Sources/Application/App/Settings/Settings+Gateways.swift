import Gateways
import SettingsTable

/// The gateways section of the settings table (read by `Configuration.readGateways`).
extension Settings {
    public static let gateways = Setting<[String]>(
        "PHONE_VERIFY_GATEWAYS", .gateways, .gateways, defaultsTo: ["console"],
        "ordered failover list of SMS gateways: " + (["console"] + VendorRegistry.names(for: .sms)).joined(separator: ", "),
        production: .check { $0.gateways.contains("console") ? "the console sink is refused in production mode" : nil })

    public static let publicURL = Setting<String>(
        "PHONE_VERIFY_PUBLIC_URL", .gateways, .baseURL, default: "the issuer",
        "public base URL vendors call back (status callbacks, delivery receipts)")

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

    /// The chain and public URL, the vendors' settings (their folders' `settings`, in registry
    /// order), then delivery.
    static let gatewaysSection: [any SettingEntry] =
        [gateways, publicURL] + VendorRegistry.settings(.gateways)
        + [gatewayTimeout, gatewayConnectTimeout, circuitFailures, circuitCooldown, deliveryThreads, deliveryMaxAttempts]
}

extension SettingType where Value == [String] {
    /// The gateways that exist, each at most once, at least one.
    static var gateways: Self {
        let known = ["console"] + VendorRegistry.names(for: .sms)
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
