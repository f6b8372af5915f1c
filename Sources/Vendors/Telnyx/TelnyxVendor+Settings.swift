import SettingsTable

/// Telnyx's entries in the settings table (docs/CONFIGURATION.md is generated from them).
extension TelnyxVendor {
    public enum Table {
        public static let baseURL = Setting<String>(
            "PHONE_VERIFY_TELNYX_BASE_URL", .gateways, .url, defaultsTo: "https://api.telnyx.com",
            "Telnyx API base URL (point it at a local fake)",
            production: .httpsOrLoopback(of: TelnyxVendor.self) { $0.settings?.baseURL })

        public static let apiKey = Setting<String>(
            "PHONE_VERIFY_TELNYX_API_KEY", .gateways, .text, default: "(none)",
            "Telnyx API key (v2)",
            secret: true)

        public static let from = Setting<String>(
            "PHONE_VERIFY_TELNYX_FROM", .gateways, .text, default: "(none)",
            "Telnyx sender: a number on the account (E.164), a short code or an alphanumeric sender id")

        public static let messagingProfileID = Setting<String>(
            "PHONE_VERIFY_TELNYX_MESSAGING_PROFILE_ID", .gateways, .text, default: "(none)",
            "Telnyx messaging profile (needed for an alphanumeric sender)")
    }

    public static var settings: [any SettingEntry] {
        [Table.baseURL, Table.apiKey, Table.from, Table.messagingProfileID]
    }
}
