import API
import CurlClient
import Gateways
import LibCrypto
import VerifyCore

/// Vonage: SMS (delivery receipts with the callback token in the URL), WhatsApp (Messages API)
/// and calls (Voice API), whose webhooks carry a JWT signed with the signature secret or the
/// callback token. Each part is set only when its gateway is in a chain.
public struct VonageVendor: Vendor {
    public let sms: VonageSettings?
    public let whatsApp: VonageWhatsAppSettings?
    public let voice: VonageVoiceSettings?
    /// Checks the JWT of the WhatsApp status and call event webhooks.
    public let signatureSecret: String?
    /// The `token` query parameter of the WhatsApp and voice webhooks.
    public let callbackToken: String?

    public init(
        sms: VonageSettings?, whatsApp: VonageWhatsAppSettings?, voice: VonageVoiceSettings?, signatureSecret: String?, callbackToken: String?
    ) {
        self.sms = sms
        self.whatsApp = whatsApp
        self.voice = voice
        self.signatureSecret = signatureSecret
        self.callbackToken = callbackToken
    }

    public func gateway(for channel: Channel, _ context: VendorContext) -> (any MessageGateway)? {
        switch channel {
        case .sms:
            guard let v = sms else { return nil }
            let callback = v.callbackToken.map { context.publicURL + VonageCallbackRoutes.receiptPath + "?token=" + FormEncoding.percentEncode($0) }
            return VonageGateway(
                configuration: VonageConfiguration(apiKey: v.apiKey, apiSecret: v.apiSecret, from: v.from, baseURL: v.baseURL, callbackURL: callback),
                http: context.http)
        case .whatsapp:
            guard let v = whatsApp else { return nil }
            return VonageWhatsAppGateway(
                configuration: VonageWhatsAppConfiguration(
                    apiKey: v.apiKey, apiSecret: v.apiSecret, from: v.from, templateName: v.template, language: v.language, baseURL: v.baseURL),
                http: context.http)
        case .call:
            guard let v = voice else { return nil }
            // Vonage signs events with the signature secret; without one, the callback token
            // rides in the event URL (the route accepts either); without both, no events.
            var event: String? = context.publicURL + VonageCallbackRoutes.voicePath
            if signatureSecret == nil {
                event = callbackToken.map { event! + "?token=" + FormEncoding.percentEncode($0) }
            }
            return VonageVoiceGateway(
                configuration: VonageVoiceConfiguration(
                    token: v.token, from: v.from, appName: context.appName, baseURL: v.baseURL, eventURL: event,
                    ringTimeoutSeconds: context.ringTimeout, lines: context.voiceLines),
                http: context.http, clock: context.clock)
        }
    }

    public func callbackRoutes(_ receipts: DeliveryReceipts, publicURL: String, clock: any Clock) -> [any RouteCollection] {
        let callbacks = callbacks(clock: clock)
        guard callbacks.receipts != nil || callbacks.channels != nil else { return [] }
        return [VonageCallbackRoutes(receipts: receipts, callbacks: callbacks)]
    }

    /// The webhooks' checks: the SMS receipts' token; the WhatsApp and voice webhooks' JWT or
    /// token, with their status mappings.
    public func callbacks(clock: any Clock) -> VonageCallbacks {
        var callbacks = VonageCallbacks()
        if let expected = sms?.callbackToken {
            let bytes = Array(expected.utf8)
            callbacks.receipts = { presented in ConstantTime.equals(bytes, Array(presented.utf8)) }
        }
        let signature = signatureSecret, token = callbackToken.map { Array($0.utf8) }
        if whatsApp != nil || voice != nil, signature != nil || token != nil {
            let authenticate: @Sendable (String?, String?, [UInt8]) -> Bool = { authorization, presented, body in
                if let signature, VonageWebhookSignature.verify(authorization: authorization, body: body, secret: signature, now: clock.now()) {
                    return true
                }
                guard let token, let presented else { return false }
                return ConstantTime.equals(token, Array(presented.utf8))
            }
            var channels = VonageChannelCallbacks(authenticate: authenticate, whatsAppStatus: nil, callStatus: nil)
            if whatsApp != nil { channels.whatsAppStatus = { VonageWhatsAppGateway.deliveryStatus($0) } }
            if voice != nil { channels.callStatus = { VonageVoiceGateway.deliveryStatus($0) } }
            callbacks.channels = channels
        }
        return callbacks
    }
}
