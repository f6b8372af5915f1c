import CurlClient
import Gateways
import VerifyCore

/// Builds the WhatsApp and voice gateways of `PHONE_VERIFY_WHATSAPP_GATEWAYS` and
/// `PHONE_VERIFY_VOICE_GATEWAYS`, in the order listed, with the status callback URLs their
/// vendors post to (`DeliveryCallbackRoutes`, `ChannelCallbackRoutes`).
struct ChannelGateways {
    let configuration: Configuration
    let publicURL: String
    let http: GatewayHTTP
    let clock: any Clock
    let consoleOutput: (@Sendable (String) -> Void)?

    /// Twilio posts every channel's statuses to one signed route.
    var twilioCallback: String { publicURL + "/v1/webhooks/twilio/status" }

    func whatsApp() -> [any MessageGateway] {
        let g = configuration.channelGateways
        return g.whatsApp.compactMap { name -> (any MessageGateway)? in
            switch name {
            case "console": return ConsoleSink(output: consoleOutput)
            case "meta":
                guard let m = g.meta else { return nil }
                return MetaWhatsAppGateway(
                    configuration: MetaWhatsAppConfiguration(
                        phoneNumberID: m.phoneNumberID, accessToken: m.accessToken, templateName: m.template, language: m.language,
                        apiVersion: m.apiVersion, baseURL: m.baseURL),
                    http: http)
            case "twilio":
                guard let t = g.twilioWhatsApp else { return nil }
                return TwilioWhatsAppGateway(
                    configuration: TwilioWhatsAppConfiguration(
                        accountSID: t.accountSID, authToken: t.authToken, from: t.from, defaultContentSID: t.contentSID,
                        contentSIDs: t.contentSIDs, baseURL: t.baseURL, statusCallbackURL: twilioCallback),
                    http: http)
            case "vonage":
                guard let v = g.vonageWhatsApp else { return nil }
                return VonageWhatsAppGateway(
                    configuration: VonageWhatsAppConfiguration(
                        apiKey: v.apiKey, apiSecret: v.apiSecret, from: v.from, templateName: v.template, language: v.language, baseURL: v.baseURL),
                    http: http)
            case "webhook": return webhook()
            default: return nil
            }
        }
    }

    func voice() -> [any MessageGateway] {
        let g = configuration.channelGateways
        return g.voice.compactMap { name -> (any MessageGateway)? in
            switch name {
            case "console": return ConsoleSink(output: consoleOutput)
            case "twilio":
                guard let t = g.twilioVoice else { return nil }
                return TwilioVoiceGateway(
                    configuration: TwilioVoiceConfiguration(
                        accountSID: t.accountSID, authToken: t.authToken, from: t.from, appName: configuration.appName, baseURL: t.baseURL,
                        statusCallbackURL: twilioCallback, voices: t.voices, ringTimeoutSeconds: g.ringTimeout, lines: configuration.voiceLines),
                    http: http)
            case "vonage":
                guard let v = g.vonageVoice else { return nil }
                // Vonage signs events with the signature secret; without one, the callback token
                // rides in the event URL (the route accepts either); without both, no events.
                var event: String? = publicURL + "/v1/webhooks/vonage/voice"
                if g.vonageSignatureSecret == nil {
                    event = g.vonageCallbackToken.map { event! + "?token=" + FormEncoding.percentEncode($0) }
                }
                return VonageVoiceGateway(
                    configuration: VonageVoiceConfiguration(
                        token: v.token, from: v.from, appName: configuration.appName, baseURL: v.baseURL, eventURL: event,
                        ringTimeoutSeconds: g.ringTimeout, lines: configuration.voiceLines),
                    http: http, clock: clock)
            case "webhook": return webhook()
            default: return nil
            }
        }
    }

    private func webhook() -> (any MessageGateway)? {
        guard let w = configuration.webhook else { return nil }
        return WebhookGateway(configuration: WebhookConfiguration(url: w.url, secret: w.secret), http: http, clock: clock)
    }
}
