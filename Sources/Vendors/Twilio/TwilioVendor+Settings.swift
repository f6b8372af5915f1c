import Gateways
import SettingsTable

/// Twilio's entries in the settings table (docs/CONFIGURATION.md is generated from them).
extension TwilioVendor {
    public enum Table {
        public static let baseURL = Setting<String>(
            "PHONE_VERIFY_TWILIO_BASE_URL", .gateways, .url, defaultsTo: "https://api.twilio.com",
            "Twilio API base URL (point it at a sandbox or a local fake)",
            production: .httpsOrLoopback(of: TwilioVendor.self) { $0.sms?.baseURL ?? $0.whatsApp?.baseURL ?? $0.voice?.baseURL })

        public static let accountSID = Setting<String>(
            "PHONE_VERIFY_TWILIO_ACCOUNT_SID", .gateways, .text, default: "(none)",
            "Twilio account SID (AC…)")

        public static let authToken = Setting<String>(
            "PHONE_VERIFY_TWILIO_AUTH_TOKEN", .gateways, .text, default: "(none)",
            "Twilio auth token (also checks X-Twilio-Signature of status callbacks)",
            secret: true)

        public static let from = Setting<String>(
            "PHONE_VERIFY_TWILIO_FROM", .gateways, .text, default: "(none)",
            "sender number (E.164) or Messaging Service SID (MG…)")

        public static let whatsAppFrom = Setting<String>(
            "PHONE_VERIFY_TWILIO_WA_FROM", .channels, .text, default: "(none)",
            "Twilio WhatsApp sender (E.164, sent as whatsapp:+…) or Messaging Service SID (MG…)")

        public static let whatsAppContentSID = Setting<String>(
            "PHONE_VERIFY_TWILIO_WA_CONTENT_SID", .channels, .text, default: "(none)",
            "default approved whatsapp/authentication Content template (HX…)")

        public static let whatsAppContentSIDs = Setting<[String: String]>(
            "PHONE_VERIFY_TWILIO_WA_CONTENT_SIDS", .channels, .pairs, default: "(none)",
            "Content templates per WhatsApp language, e.g. de=HX…,pt_BR=HX…")

        public static let voiceFrom = Setting<String>(
            "PHONE_VERIFY_TWILIO_VOICE_FROM", .channels, .text, default: "PHONE_VERIFY_TWILIO_FROM",
            "caller id of Twilio verification calls: a voice-capable Twilio number or verified caller id")

        public static let voiceVoices = Setting<[String: String]>(
            "PHONE_VERIFY_TWILIO_VOICE_VOICES", .channels, .pairs, default: "(Polly voices)",
            "Twilio voice per speech locale, e.g. en-US=Polly.Joanna,de-DE=Polly.Vicki (replaces the built-in list)")
    }

    public static var settings: [any SettingEntry] {
        [Table.baseURL, Table.accountSID, Table.authToken, Table.from, Table.whatsAppFrom, Table.whatsAppContentSID, Table.whatsAppContentSIDs, Table.voiceFrom, Table.voiceVoices]
    }
}
