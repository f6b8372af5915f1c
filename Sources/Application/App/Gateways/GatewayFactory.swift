import API
import LibCrypto
import Foundation
import Gateways
import CurlClient
import Telemetry
import VerifyCore

/// Builds the configured gateway chains, one per channel, each in failover order with its own
/// circuit breakers (`PHONE_VERIFY_GATEWAYS`, `PHONE_VERIFY_WHATSAPP_GATEWAYS`, `PHONE_VERIFY_VOICE_GATEWAYS`).
enum GatewayFactory {
    static func make(
        _ c: Configuration, publicURL: String, clock: any Clock, logger: Logger, consoleOutput: (@Sendable (String) -> Void)?,
        events: any EventSink
    ) -> ChannelRouter {
        let client = HTTPClient(configuration: HTTPClientConfiguration(
            connectTimeout: c.gatewayConnectTimeout, totalTimeout: c.gatewayTimeout))
        let http = GatewayHTTP(client: client, timeout: c.gatewayTimeout, connectTimeout: c.gatewayConnectTimeout)
        let gateways: [any MessageGateway] = c.gateways.compactMap { name in
            switch name {
            case "console": return ConsoleSink(output: consoleOutput)
            case "twilio":
                guard let t = c.twilio else { return nil }
                return TwilioGateway(
                    configuration: TwilioConfiguration(
                        accountSID: t.accountSID, authToken: t.authToken, from: t.from, baseURL: t.baseURL,
                        statusCallbackURL: publicURL + "/v1/webhooks/twilio/status"),
                    http: http)
            case "vonage":
                guard let v = c.vonage else { return nil }
                let callback = v.callbackToken.map { publicURL + "/v1/webhooks/vonage/dlr?token=" + FormEncoding.percentEncode($0) }
                return VonageGateway(
                    configuration: VonageConfiguration(apiKey: v.apiKey, apiSecret: v.apiSecret, from: v.from, baseURL: v.baseURL, callbackURL: callback),
                    http: http)
            case "webhook":
                guard let w = c.webhook else { return nil }
                return WebhookGateway(configuration: WebhookConfiguration(url: w.url, secret: w.secret), http: http, clock: clock)
            default: return nil
            }
        }
        let chain = { (members: [any MessageGateway]) in
            FailoverGateway(members, clock: clock, logger: logger, threshold: c.circuitFailures, cooldown: Double(c.circuitCooldown), events: events)
        }
        var chains: [Channel: FailoverGateway] = [.sms: chain(gateways)]
        let channels = ChannelGateways(configuration: c, publicURL: publicURL, http: http, clock: clock, consoleOutput: consoleOutput)
        if !c.channelGateways.whatsApp.isEmpty { chains[.whatsapp] = chain(channels.whatsApp()) }
        if !c.channelGateways.voice.isEmpty { chains[.call] = chain(channels.voice()) }
        return ChannelRouter(chains)
    }

    /// Authenticators of vendors' status callbacks, for the configured gateways of every channel
    /// (`GatewayFactory+Callbacks.swift` for the WhatsApp and voice ones).
    static func callbackAuth(_ c: Configuration, publicURL: String, clock: any Clock) -> CallbackAuthenticators {
        var auth = CallbackAuthenticators(publicURL: publicURL)
        let g = c.channelGateways
        let twilioToken = c.gateways.contains("twilio") ? c.twilio?.authToken : (g.twilioWhatsApp?.authToken ?? g.twilioVoice?.authToken)
        if let token = twilioToken {
            auth.twilio = { url, fields, signature in
                TwilioSignature.isValid(authToken: token, url: url, fields: fields, signature: signature)
            }
        }
        if let expected = c.vonage?.callbackToken, c.gateways.contains("vonage") {
            let bytes = Array(expected.utf8)
            auth.vonage = { presented in ConstantTime.equals(bytes, Array(presented.utf8)) }
        }
        addChannelCallbacks(c, to: &auth, clock: clock)
        return auth
    }
}
