import Gateways

/// The Vonage SMS account, sender and receipt token (`PHONE_VERIFY_VONAGE_*`, read by
/// `VonageVendor.read` from its settings-table entries).
public struct VonageSettings: Sendable {
    public var baseURL, apiKey, apiSecret, from: String
    public var callbackToken: String?

    public init(baseURL: String, apiKey: String, apiSecret: String, from: String, callbackToken: String?) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.apiSecret = apiSecret
        self.from = from
        self.callbackToken = callbackToken
    }
}

/// Vonage's WhatsApp sender and template (`PHONE_VERIFY_VONAGE_WA_*`; the account's key).
public struct VonageWhatsAppSettings: Sendable {
    public var baseURL, apiKey, apiSecret, from, template: String
    public var language: WhatsAppLanguage

    public init(baseURL: String, apiKey: String, apiSecret: String, from: String, template: String, language: WhatsAppLanguage) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.apiSecret = apiSecret
        self.from = from
        self.template = template
        self.language = language
    }
}

/// Vonage's voice application and caller id (`PHONE_VERIFY_VONAGE_VOICE_*`, `…_APPLICATION_ID`).
public struct VonageVoiceSettings: Sendable {
    public var baseURL, from: String
    public var token: VonageApplicationToken

    public init(baseURL: String, from: String, token: VonageApplicationToken) {
        self.baseURL = baseURL
        self.from = from
        self.token = token
    }
}
