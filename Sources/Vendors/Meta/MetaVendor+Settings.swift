import Gateways
import SettingsTable

/// Meta's entries in the settings table (docs/CONFIGURATION.md is generated from them).
extension MetaVendor {
    public enum Table {
        public static let baseURL = Setting<String>(
            "PHONE_VERIFY_META_WA_BASE_URL", .channels, .url, defaultsTo: "https://graph.facebook.com",
            "Meta Graph API base URL (point it at a local fake)",
            production: .httpsOrLoopback(of: MetaVendor.self) { $0.whatsApp?.baseURL })

        public static let apiVersion = Setting<String>(
            "PHONE_VERIFY_META_WA_API_VERSION", .channels, .text, defaultsTo: "v21.0",
            "Graph API version of the WhatsApp Cloud API")

        public static let phoneNumberID = Setting<String>(
            "PHONE_VERIFY_META_WA_PHONE_NUMBER_ID", .channels, .text, default: "(none)",
            "the WhatsApp sender's phone number ID (WhatsApp Manager → API setup), not the number")

        public static let accessToken = Setting<String>(
            "PHONE_VERIFY_META_WA_ACCESS_TOKEN", .channels, .text, default: "(none)",
            "system-user access token with whatsapp_business_messaging",
            secret: true)

        public static let template = Setting<String>(
            "PHONE_VERIFY_META_WA_TEMPLATE", .channels, .text, default: "(none)",
            "name of the approved authentication template (copy-code button)")

        public static let languages = Setting<[String]>(
            "PHONE_VERIFY_META_WA_LANGUAGES", .channels, .list, default: "(none)",
            "languages the template is approved in, in preference order (en_US,de,pt_BR)")

        public static let fallbackLanguage = Setting<String>(
            "PHONE_VERIFY_META_WA_FALLBACK_LANGUAGE", .channels, .text, defaultsTo: "en_US",
            "template language when no approved language matches the locale")

        public static let appSecret = Setting<String>(
            "PHONE_VERIFY_META_WA_APP_SECRET", .channels, .text, default: "(none)",
            "app secret: checks X-Hub-Signature-256 of status webhooks (no status route without it)",
            secret: true)

        public static let verifyToken = Setting<String>(
            "PHONE_VERIFY_META_WA_VERIFY_TOKEN", .channels, .text, default: "(none)",
            "random string Meta presents in the webhook subscription handshake (no handshake without it)",
            secret: true)
    }

    public static var settings: [any SettingEntry] {
        [Table.baseURL, Table.apiVersion, Table.phoneNumberID, Table.accessToken, Table.template, Table.languages, Table.fallbackLanguage, Table.appSecret, Table.verifyToken]
    }
}
