import Gateways
import SettingsTable

/// Vonage's entries in the settings table (docs/CONFIGURATION.md is generated from them).
extension VonageVendor {
    public enum Table {
        public static let baseURL = Setting<String>(
            "PHONE_VERIFY_VONAGE_BASE_URL", .gateways, .url, defaultsTo: "https://rest.nexmo.com",
            "Vonage SMS API base URL",
            production: .httpsOrLoopback(of: VonageVendor.self) { $0.sms?.baseURL })

        public static let apiKey = Setting<String>(
            "PHONE_VERIFY_VONAGE_API_KEY", .gateways, .text, default: "(none)",
            "Vonage API key")

        public static let apiSecret = Setting<String>(
            "PHONE_VERIFY_VONAGE_API_SECRET", .gateways, .text, default: "(none)",
            "Vonage API secret",
            secret: true)

        public static let from = Setting<String>(
            "PHONE_VERIFY_VONAGE_FROM", .gateways, .text, default: "(none)",
            "Vonage sender id or number")

        public static let callbackToken = Setting<String>(
            "PHONE_VERIFY_VONAGE_CALLBACK_TOKEN", .gateways, .text, default: "(none)",
            "secret token in the delivery-receipt URL passed to Vonage; receipts without it get 403",
            secret: true)

        public static let messagesBaseURL = Setting<String>(
            "PHONE_VERIFY_VONAGE_MESSAGES_BASE_URL", .channels, .url, defaultsTo: "https://api.nexmo.com",
            "Vonage Messages API base URL (WhatsApp)",
            production: .httpsOrLoopback(of: VonageVendor.self) { $0.whatsApp?.baseURL })

        public static let whatsAppFrom = Setting<String>(
            "PHONE_VERIFY_VONAGE_WA_FROM", .channels, .text, default: "(none)",
            "the WhatsApp Business number linked to the Vonage account")

        public static let whatsAppTemplate = Setting<String>(
            "PHONE_VERIFY_VONAGE_WA_TEMPLATE", .channels, .text, default: "(none)",
            "name of the approved authentication template (copy-code button)")

        public static let whatsAppLanguages = Setting<[String]>(
            "PHONE_VERIFY_VONAGE_WA_LANGUAGES", .channels, .list, default: "(none)",
            "languages the template is approved in, in preference order")

        public static let whatsAppFallbackLanguage = Setting<String>(
            "PHONE_VERIFY_VONAGE_WA_FALLBACK_LANGUAGE", .channels, .text, defaultsTo: "en_US",
            "template language when no approved language matches the locale")

        public static let voiceBaseURL = Setting<String>(
            "PHONE_VERIFY_VONAGE_VOICE_BASE_URL", .channels, .url, defaultsTo: "https://api.nexmo.com",
            "Vonage Voice API base URL (or api-us / api-eu)",
            production: .httpsOrLoopback(of: VonageVendor.self) { $0.voice?.baseURL })

        public static let applicationID = Setting<String>(
            "PHONE_VERIFY_VONAGE_APPLICATION_ID", .channels, .text, default: "(none)",
            "Vonage application id (voice calls are authenticated with the application's JWT)")

        public static let privateKey = Setting<String>(
            "PHONE_VERIFY_VONAGE_PRIVATE_KEY", .channels, .text, default: "(none)",
            "the Vonage application's RSA private key, PEM (or use PHONE_VERIFY_VONAGE_PRIVATE_KEY_FILE)",
            secret: true)

        public static let privateKeyFile = Setting<String>(
            "PHONE_VERIFY_VONAGE_PRIVATE_KEY_FILE", .channels, .text, default: "(none)",
            "file holding the Vonage application's RSA private key (PEM)")

        public static let voiceFrom = Setting<String>(
            "PHONE_VERIFY_VONAGE_VOICE_FROM", .channels, .text, default: "(none)",
            "caller id of Vonage verification calls: a voice-enabled number linked to the application")

        public static let signatureSecret = Setting<String>(
            "PHONE_VERIFY_VONAGE_SIGNATURE_SECRET", .channels, .text, default: "(none)",
            "signature secret checking the HS256 JWT of Vonage WhatsApp status and call event webhooks",
            secret: true)
    }

    public static var settings: [any SettingEntry] {
        [Table.baseURL, Table.apiKey, Table.apiSecret, Table.from, Table.callbackToken, Table.messagesBaseURL, Table.whatsAppFrom, Table.whatsAppTemplate, Table.whatsAppLanguages, Table.whatsAppFallbackLanguage, Table.voiceBaseURL, Table.applicationID, Table.privateKey, Table.privateKeyFile, Table.voiceFrom, Table.signatureSecret]
    }
}
