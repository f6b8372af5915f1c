import Gateways
import SettingsTable
import VerifyCore

/// The events section of the settings table (read by `Configuration.readEvents`): signed
/// webhooks for the main auth server and analytics (docs/EVENTS.md).
extension Settings {
    public static let eventsURL = Setting<String>(
        "PHONE_VERIFY_EVENTS_URL", .events, .url, default: "(none: no events are written)",
        "receiver of the events (JSON, Standard Webhooks signature); unset, nothing is written",
        production: .httpsOrLoopback { $0.events?.url })

    public static let eventsSecret = Setting<WebhookSecret>(
        "PHONE_VERIFY_EVENTS_SECRET", .events, .eventsSecret, default: "(none)",
        "Standard Webhooks secret signing the events: whsec_ + base64 key (required with the URL)",
        secret: true, production: .check(Configuration.weakEventsSecret))

    public static let eventTypes = Setting<[String]>(
        "PHONE_VERIFY_EVENTS", .events, .eventTypes, defaultsTo: EventType.allCases.map(\.rawValue), shown: "all",
        "comma-separated event types to send (verification.started, delivery.updated, …); default all")

    public static let eventsTimeout = Setting<Int>(
        "PHONE_VERIFY_EVENTS_TIMEOUT", .events, .int(1...60), defaultsTo: 5,
        "seconds one event POST may take in all (connecting included)")

    public static let eventsMaxAttempts = Setting<Int>(
        "PHONE_VERIFY_EVENTS_MAX_ATTEMPTS", .events, .int(1...1000), defaultsTo: 120,
        "POSTs per event before it is marked failed (backoff 1 s doubling, at most 15 min apart)")

    public static let eventsMaxAge = Setting<Int>(
        "PHONE_VERIFY_EVENTS_MAX_AGE", .events, .int(60...604_800), defaultsTo: 86400,
        "seconds after which an undelivered event is marked failed instead of retried")

    public static let eventsThreads = Setting<Int>(
        "PHONE_VERIFY_EVENTS_THREADS", .events, .int(1...16), defaultsTo: 2,
        "threads sending events")

    static let eventsSection: [any SettingEntry] = [
        eventsURL, eventsSecret, eventTypes, eventsTimeout, eventsMaxAttempts, eventsMaxAge, eventsThreads,
    ]
}

extension SettingType where Value == [String] {
    /// Known event types, or `all`.
    static var eventTypes: Self {
        let known = EventType.allCases.map(\.rawValue)
        return Self("event types, or all") { text in
            let types = items(text)
            if types == ["all"] { return (known, []) }
            var problems = types.filter { !known.contains($0) }.map {
                "unknown event type \"\($0)\" (known: \(known.joined(separator: ", ")), or all)"
            }
            if types.isEmpty { problems.append("must list at least one event type (or all)") }
            return (types, problems)
        }
    }
}

extension SettingType where Value == WebhookSecret {
    /// A Standard Webhooks secret proper: `whsec_` + a base64 key (no plain strings).
    static var eventsSecret: Self {
        Self("whsec_ + base64 key") { text in
            let secret = WebhookSecret(text)
            guard text.hasPrefix(WebhookSecret.prefix), let key = secret.key, !key.isEmpty else {
                return (secret, ["must be \(WebhookSecret.prefix) followed by the key in base64 (e.g. whsec_$(openssl rand -base64 32))"])
            }
            return (secret, [])
        }
    }
}
