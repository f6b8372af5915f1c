import SettingsTable

/// The channels section, continued: Twilio's and Vonage's WhatsApp and voice settings (their
/// account credentials are the SMS gateways', `Settings+Gateways.swift`).
extension Settings {
    public static let twilioWhatsAppFrom = Setting<String>(
        "PHONE_VERIFY_TWILIO_WA_FROM", .channels, .text, default: "(none)",
        "Twilio WhatsApp sender (E.164, sent as whatsapp:+…) or Messaging Service SID (MG…)")

    public static let twilioWhatsAppContentSID = Setting<String>(
        "PHONE_VERIFY_TWILIO_WA_CONTENT_SID", .channels, .text, default: "(none)",
        "default approved whatsapp/authentication Content template (HX…)")

    public static let twilioWhatsAppContentSIDs = Setting<[String: String]>(
        "PHONE_VERIFY_TWILIO_WA_CONTENT_SIDS", .channels, .pairs, default: "(none)",
        "Content templates per WhatsApp language, e.g. de=HX…,pt_BR=HX…")

    public static let twilioVoiceFrom = Setting<String>(
        "PHONE_VERIFY_TWILIO_VOICE_FROM", .channels, .text, default: "PHONE_VERIFY_TWILIO_FROM",
        "caller id of Twilio verification calls: a voice-capable Twilio number or verified caller id")

    public static let twilioVoiceVoices = Setting<[String: String]>(
        "PHONE_VERIFY_TWILIO_VOICE_VOICES", .channels, .pairs, default: "(Polly voices)",
        "Twilio voice per speech locale, e.g. en-US=Polly.Joanna,de-DE=Polly.Vicki (replaces the built-in list)")

    public static let vonageMessagesBaseURL = Setting<String>(
        "PHONE_VERIFY_VONAGE_MESSAGES_BASE_URL", .channels, .url, defaultsTo: "https://api.nexmo.com",
        "Vonage Messages API base URL (WhatsApp)",
        production: .httpsOrLoopback { $0.channelGateways.vonageWhatsApp?.baseURL })

    public static let vonageWhatsAppFrom = Setting<String>(
        "PHONE_VERIFY_VONAGE_WA_FROM", .channels, .text, default: "(none)",
        "the WhatsApp Business number linked to the Vonage account")

    public static let vonageWhatsAppTemplate = Setting<String>(
        "PHONE_VERIFY_VONAGE_WA_TEMPLATE", .channels, .text, default: "(none)",
        "name of the approved authentication template (copy-code button)")

    public static let vonageWhatsAppLanguages = Setting<[String]>(
        "PHONE_VERIFY_VONAGE_WA_LANGUAGES", .channels, .list, default: "(none)",
        "languages the template is approved in, in preference order")

    public static let vonageWhatsAppFallbackLanguage = Setting<String>(
        "PHONE_VERIFY_VONAGE_WA_FALLBACK_LANGUAGE", .channels, .text, defaultsTo: "en_US",
        "template language when no approved language matches the locale")

    public static let vonageVoiceBaseURL = Setting<String>(
        "PHONE_VERIFY_VONAGE_VOICE_BASE_URL", .channels, .url, defaultsTo: "https://api.nexmo.com",
        "Vonage Voice API base URL (or api-us / api-eu)",
        production: .httpsOrLoopback { $0.channelGateways.vonageVoice?.baseURL })

    public static let vonageApplicationID = Setting<String>(
        "PHONE_VERIFY_VONAGE_APPLICATION_ID", .channels, .text, default: "(none)",
        "Vonage application id (voice calls are authenticated with the application's JWT)")

    public static let vonagePrivateKey = Setting<String>(
        "PHONE_VERIFY_VONAGE_PRIVATE_KEY", .channels, .text, default: "(none)",
        "the Vonage application's RSA private key, PEM (or use PHONE_VERIFY_VONAGE_PRIVATE_KEY_FILE)",
        secret: true)

    public static let vonagePrivateKeyFile = Setting<String>(
        "PHONE_VERIFY_VONAGE_PRIVATE_KEY_FILE", .channels, .text, default: "(none)",
        "file holding the Vonage application's RSA private key (PEM)")

    public static let vonageVoiceFrom = Setting<String>(
        "PHONE_VERIFY_VONAGE_VOICE_FROM", .channels, .text, default: "(none)",
        "caller id of Vonage verification calls: a voice-enabled number linked to the application")

    public static let vonageSignatureSecret = Setting<String>(
        "PHONE_VERIFY_VONAGE_SIGNATURE_SECRET", .channels, .text, default: "(none)",
        "signature secret checking the HS256 JWT of Vonage WhatsApp status and call event webhooks",
        secret: true)

    static let channelVendorsSection: [any SettingEntry] = [
        twilioWhatsAppFrom, twilioWhatsAppContentSID, twilioWhatsAppContentSIDs, twilioVoiceFrom, twilioVoiceVoices,
        vonageMessagesBaseURL, vonageWhatsAppFrom, vonageWhatsAppTemplate, vonageWhatsAppLanguages, vonageWhatsAppFallbackLanguage,
        vonageVoiceBaseURL, vonageApplicationID, vonagePrivateKey, vonagePrivateKeyFile, vonageVoiceFrom, vonageSignatureSecret,
    ]
}
