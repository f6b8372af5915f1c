/// The Twilio SMS account and sender (`PHONE_VERIFY_TWILIO_*`, read by
/// `TwilioVendor.read` from its settings-table entries).
public struct TwilioSettings: Sendable {
    public var baseURL, accountSID, authToken, from: String

    public init(baseURL: String, accountSID: String, authToken: String, from: String) {
        self.baseURL = baseURL
        self.accountSID = accountSID
        self.authToken = authToken
        self.from = from
    }
}

/// Twilio's WhatsApp sender and Content templates (`PHONE_VERIFY_TWILIO_WA_*`; the account's).
public struct TwilioWhatsAppSettings: Sendable {
    public var baseURL, accountSID, authToken, from, contentSID: String
    public var contentSIDs: [String: String]

    public init(baseURL: String, accountSID: String, authToken: String, from: String, contentSID: String, contentSIDs: [String: String]) {
        self.baseURL = baseURL
        self.accountSID = accountSID
        self.authToken = authToken
        self.from = from
        self.contentSID = contentSID
        self.contentSIDs = contentSIDs
    }
}

/// Twilio's caller id and voices (`PHONE_VERIFY_TWILIO_VOICE_*`; the account's).
public struct TwilioVoiceSettings: Sendable {
    public var baseURL, accountSID, authToken, from: String
    public var voices: [String: String]

    public init(baseURL: String, accountSID: String, authToken: String, from: String, voices: [String: String]) {
        self.baseURL = baseURL
        self.accountSID = accountSID
        self.authToken = authToken
        self.from = from
        self.voices = voices
    }
}
