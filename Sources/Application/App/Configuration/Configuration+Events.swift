import Gateways
import SettingsTable
import VerifyCore

extension Configuration {
    /// Where events go, how they are signed, which are sent (`Settings+Events.swift`). Without
    /// a URL, `events` stays nil and nothing is written.
    mutating func readEvents(_ reader: inout SettingReader) {
        let types = reader.value(Settings.eventTypes)
        let timeout = reader.value(Settings.eventsTimeout)
        let maxAttempts = reader.value(Settings.eventsMaxAttempts)
        let maxAge = reader.value(Settings.eventsMaxAge)
        let threads = reader.value(Settings.eventsThreads)
        let secret = reader(Settings.eventsSecret)
        guard let url = reader(Settings.eventsURL) else { return }
        if secret == nil, reader.text(Settings.eventsSecret) == nil {
            reader.problem(Settings.eventsSecret, "is required by \(Settings.eventsURL.name)")
        }
        var settings = EventSettings(url: url, secret: secret?.text ?? "")
        settings.types = Set(types.compactMap(EventType.init(rawValue:)))
        settings.timeout = timeout
        settings.maxAttempts = maxAttempts
        settings.maxAge = maxAge
        settings.threads = threads
        events = settings
    }

    /// Production rule of the events secret: a key of at least 24 bytes, like the webhook gateway's.
    static func weakEventsSecret(_ configuration: Configuration) -> String? {
        guard let secret = configuration.events?.secret, (WebhookSecret(secret).key?.count ?? 0) < 24 else { return nil }
        return "must hold a key of at least 24 bytes in production mode"
    }

    /// The events receiver and its delivery (docs/EVENTS.md).
    public struct EventSettings: Sendable {
        public var url: String
        public var secret: String
        public var types = Set(Settings.eventTypes.standard.compactMap(EventType.init(rawValue:)))
        public var timeout: Int = Settings.eventsTimeout.standard
        public var maxAttempts: Int = Settings.eventsMaxAttempts.standard
        public var maxAge: Int = Settings.eventsMaxAge.standard
        public var threads: Int = Settings.eventsThreads.standard

        public init(url: String, secret: String) {
            self.url = url
            self.secret = secret
        }
    }
}
