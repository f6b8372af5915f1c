import API
import Adapters
import Gateways
import LibCrypto
import VerifyCore

extension GatewayFactory {
    /// The WhatsApp and voice vendors' callbacks: Twilio's statuses on its one route, Meta's
    /// webhooks (handshake with the verify token, statuses signed with the app secret) and
    /// Vonage's (a JWT signed with the signature secret, or the callback token in the URL).
    static func addChannelCallbacks(_ c: Configuration, to auth: inout CallbackAuthenticators, clock: any Clock) {
        let g = c.channelGateways
        if g.twilioWhatsApp != nil {
            auth.twilioChannels.whatsApp = { status, code in TwilioWhatsAppGateway.deliveryStatus(status, errorCode: code) }
        }
        if g.twilioVoice != nil {
            auth.twilioChannels.call = { TwilioVoiceGateway.deliveryStatus(callStatus: $0) }
        }
        if let meta = g.meta, meta.appSecret != nil || meta.verifyToken != nil {
            var challenge: (@Sendable (String?, String?, String?) -> String?)?
            if let token = meta.verifyToken {
                challenge = { mode, presented, value in
                    MetaWebhookSignature.challenge(mode: mode, token: presented, challenge: value, verifyToken: token)
                }
            }
            var verify: (@Sendable ([UInt8], String?) -> Bool)?
            if let secret = meta.appSecret {
                verify = { body, header in MetaWebhookSignature.verify(body: body, header: header, appSecret: secret) }
            }
            let statuses: @Sendable ([UInt8]) -> [CallbackReceipt] = { body in
                MetaWhatsAppStatus.parse(body).map { s in
                    CallbackReceipt(
                        messageID: s.messageID, status: s.status, error: s.errorCode.map { "meta error \($0)" }, to: s.recipient.map { "+" + $0 })
                }
            }
            auth.meta = MetaCallbacks(challenge: challenge, verify: verify, statuses: statuses)
        }
        let signature = g.vonageSignatureSecret, token = g.vonageCallbackToken.map { Array($0.utf8) }
        if g.vonageWhatsApp != nil || g.vonageVoice != nil, signature != nil || token != nil {
            let authenticate: @Sendable (String?, String?, [UInt8]) -> Bool = { authorization, presented, body in
                if let signature, VonageWebhookSignature.verify(authorization: authorization, body: body, secret: signature, now: clock.now()) {
                    return true
                }
                guard let token, let presented else { return false }
                return ConstantTime.equals(token, Array(presented.utf8))
            }
            var whatsApp: (@Sendable (String) -> DeliveryStatus?)?
            if g.vonageWhatsApp != nil { whatsApp = { VonageWhatsAppGateway.deliveryStatus($0) } }
            var call: (@Sendable (String) -> DeliveryStatus?)?
            if g.vonageVoice != nil { call = { VonageVoiceGateway.deliveryStatus($0) } }
            auth.vonageChannels = VonageChannelCallbacks(authenticate: authenticate, whatsAppStatus: whatsApp, callStatus: call)
        }
    }
}
