import API
import CurlClient
import Gateways
import VerifyCore

/// Twilio: SMS (`twilio` in `PHONE_VERIFY_GATEWAYS`), WhatsApp and calls, all reporting to one
/// signed status route. Each part is set only when its gateway is in a chain.
public struct TwilioVendor: Vendor {
    public let sms: TwilioSettings?
    public let whatsApp: TwilioWhatsAppSettings?
    public let voice: TwilioVoiceSettings?

    public init(sms: TwilioSettings?, whatsApp: TwilioWhatsAppSettings?, voice: TwilioVoiceSettings?) {
        self.sms = sms
        self.whatsApp = whatsApp
        self.voice = voice
    }

    public func gateway(for channel: Channel, _ context: VendorContext) -> (any MessageGateway)? {
        let callback = context.publicURL + TwilioCallbackRoutes.path
        switch channel {
        case .sms:
            guard let t = sms else { return nil }
            return TwilioGateway(
                configuration: TwilioConfiguration(
                    accountSID: t.accountSID, authToken: t.authToken, from: t.from, baseURL: t.baseURL, statusCallbackURL: callback),
                http: context.http)
        case .whatsapp:
            guard let t = whatsApp else { return nil }
            return TwilioWhatsAppGateway(
                configuration: TwilioWhatsAppConfiguration(
                    accountSID: t.accountSID, authToken: t.authToken, from: t.from, defaultContentSID: t.contentSID,
                    contentSIDs: t.contentSIDs, baseURL: t.baseURL, statusCallbackURL: callback),
                http: context.http)
        case .call:
            guard let t = voice else { return nil }
            return TwilioVoiceGateway(
                configuration: TwilioVoiceConfiguration(
                    accountSID: t.accountSID, authToken: t.authToken, from: t.from, appName: context.appName, baseURL: t.baseURL,
                    statusCallbackURL: callback, voices: t.voices, ringTimeoutSeconds: context.ringTimeout, lines: context.voiceLines),
                http: context.http)
        }
    }

    public func callbackRoutes(_ receipts: DeliveryReceipts, publicURL: String, clock: any Clock) -> [any RouteCollection] {
        callbacks(publicURL: publicURL).map { [$0.routes(receipts)] } ?? []
    }

    /// The status route's checks: the auth token of the SMS account, else of the WhatsApp or
    /// voice one (they share it); nil when no Twilio gateway is configured.
    public func callbacks(publicURL: String) -> TwilioCallbacks? {
        guard let token = sms?.authToken ?? whatsApp?.authToken ?? voice?.authToken else { return nil }
        var callbacks = TwilioCallbacks(publicURL: publicURL) { url, fields, signature in
            TwilioSignature.isValid(authToken: token, url: url, fields: fields, signature: signature)
        }
        if whatsApp != nil { callbacks.whatsApp = { status, code in TwilioWhatsAppGateway.deliveryStatus(status, errorCode: code) } }
        if voice != nil { callbacks.call = { TwilioVoiceGateway.deliveryStatus(callStatus: $0) } }
        return callbacks
    }
}
