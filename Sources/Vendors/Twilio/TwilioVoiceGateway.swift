import Gateways
import Foundation
import CurlClient
import VerifyCore
import Encoding

/// Settings of the Twilio Programmable Voice gateway (verification codes by phone call).
public struct TwilioVoiceConfiguration: Sendable {
    public var baseURL = "https://api.twilio.com"
    public var accountSID: String
    public var authToken: String
    /// The caller id (E.164): a Twilio voice number of this account or a verified caller id.
    /// Alphanumeric senders and Messaging Services cannot place calls.
    public var from: String
    /// Where Twilio posts call status callbacks (`answered`, `completed`), if reachable.
    public var statusCallbackURL: String?
    /// The name said in the intro ("Your Acme verification code is").
    public var appName: String
    /// The lines per language (`PHONE_VERIFY_VOICE_TEMPLATES_FILE` over the built-in ones).
    public var lines: [String: VoiceLines] = VoiceScriptComposer.builtIn
    /// Twilio `voice` per speech locale ("en-US" → "Polly.Joanna"); a locale not listed gets
    /// Twilio's default voice for its `language`.
    public var voices: [String: String]
    /// Seconds Twilio lets the phone ring before giving up (Twilio's `Timeout`, default 60).
    public var ringTimeoutSeconds: Int?

    /// Amazon Polly standard voices Twilio offers for the built-in speech locales.
    public static let defaultVoices: [String: String] = [
        "en-US": "Polly.Joanna", "en-GB": "Polly.Amy", "en-AU": "Polly.Nicole", "en-IN": "Polly.Aditi",
        "es-ES": "Polly.Lucia", "es-MX": "Polly.Mia", "es-US": "Polly.Lupe", "fr-FR": "Polly.Lea",
        "fr-CA": "Polly.Chantal", "de-DE": "Polly.Vicki", "pt-BR": "Polly.Camila", "pt-PT": "Polly.Ines",
    ]

    public init(
        accountSID: String, authToken: String, from: String, appName: String, baseURL: String = "https://api.twilio.com",
        statusCallbackURL: String? = nil, voices: [String: String] = TwilioVoiceConfiguration.defaultVoices,
        ringTimeoutSeconds: Int? = nil, lines: [String: VoiceLines] = VoiceScriptComposer.builtIn
    ) {
        self.lines = lines
        self.accountSID = accountSID
        self.authToken = authToken
        self.from = from
        self.appName = appName
        self.baseURL = baseURL
        self.statusCallbackURL = statusCallbackURL
        self.voices = voices
        self.ringTimeoutSeconds = ringTimeoutSeconds
    }
}

/// Calls through `POST /2010-04-01/Accounts/{AccountSid}/Calls.json` (form-encoded, HTTP Basic)
/// with the script as inline `Twiml`: the code travels only in the request body, never in a URL
/// Twilio would fetch or log. The call's `sid` is the provider id; whether it was answered is
/// known later, from the status callback.
public struct TwilioVoiceGateway: MessageGateway {
    public let name = "twilio-voice"
    let configuration: TwilioVoiceConfiguration
    let composer: VoiceScriptComposer

    /// Errors about the destination itself, no other gateway would do better: 21211 invalid
    /// To, 21214 To cannot be reached, 21217 not a valid phone number, 13223 not E.164, 13224
    /// a number Twilio cannot call (invalid or non-existent).
    static let destinationErrors: Set<Int64> = [21211, 21214, 21217, 13223, 13224]
    /// This account cannot call this destination while it works for others; another gateway
    /// may: 21215 geo permissions, 21216 blocked by Twilio (high-risk or regulated destination),
    /// 13227 no international calling permission.
    static let unroutableErrors: Set<Int64> = [21215, 21216, 13227]

    let http: GatewayHTTP

    public init(configuration: TwilioVoiceConfiguration, http: GatewayHTTP) {
        self.configuration = configuration
        self.http = http
        self.composer = VoiceScriptComposer(appName: configuration.appName, lines: configuration.lines)
    }

    /// The form fields of the call for `sms`: To, From, Twiml, and the callback settings.
    func fields(for message: OutboundMessage) -> [(String, String)] {
        let c = configuration
        let script = composer.script(code: message.code, locale: message.locale)
        var fields = [("To", message.to), ("From", c.from), ("Twiml", script.twiml(voice: c.voices[script.speechLocale]))]
        if let timeout = c.ringTimeoutSeconds { fields.append(("Timeout", String(timeout))) }
        if let callback = c.statusCallbackURL {
            fields += [
                ("StatusCallback", callback), ("StatusCallbackMethod", "POST"),
                ("StatusCallbackEvent", "answered"), ("StatusCallbackEvent", "completed"),
            ]
        }
        return fields
    }

    public func send(_ message: OutboundMessage) -> GatewayResult {
        let c = configuration
        // Credentials, caller id (21210 not verified) or account problems fall through to "retryable".
        let api = TwilioAPI(http: http, gateway: name, label: name, destinationErrors: Self.destinationErrors, unroutableErrors: Self.unroutableErrors)
        return api.post(
            baseURL: c.baseURL, accountSID: c.accountSID, authToken: c.authToken, resource: "Calls.json", fields: fields(for: message),
            sidOf: "call"
        ) { _, _ in
            // Twilio's error code only: its message may echo the form-encoded Twiml, which spells
            // the code in forms no redaction can promise to catch (docs/GATEWAYS.md).
            nil
        }
    }

    /// A call status callback's `CallStatus` → delivery status. `in-progress` (answered) and
    /// `completed` (ended after an answer, possibly by voicemail) → delivered; `busy`, `no-answer`
    /// and `canceled` → undelivered (the phone exists, nobody took the call: another channel may
    /// reach them); `failed` (Twilio could not place the call) → failed; the rest → sent.
    public static func deliveryStatus(callStatus: String) -> DeliveryStatus? {
        switch callStatus {
        case "in-progress", "completed": return .delivered
        case "busy", "no-answer", "canceled": return .undelivered
        case "failed": return .failed
        case "queued", "initiated", "ringing": return .sent
        default: return nil
        }
    }
}
