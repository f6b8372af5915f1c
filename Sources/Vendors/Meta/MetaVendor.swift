import API
import Gateways
import VerifyCore

/// Meta's WhatsApp Cloud API (`meta` in `PHONE_VERIFY_WHATSAPP_GATEWAYS`): WhatsApp only; its
/// webhook needs the verify token (handshake) and the app secret (signed statuses).
public struct MetaVendor: Vendor {
    public let whatsApp: MetaSettings?

    public init(whatsApp: MetaSettings?) {
        self.whatsApp = whatsApp
    }

    public func gateway(for channel: Channel, _ context: VendorContext) -> (any MessageGateway)? {
        guard channel == .whatsapp, let m = whatsApp else { return nil }
        return MetaWhatsAppGateway(
            configuration: MetaWhatsAppConfiguration(
                phoneNumberID: m.phoneNumberID, accessToken: m.accessToken, templateName: m.template, language: m.language,
                apiVersion: m.apiVersion, baseURL: m.baseURL),
            http: context.http)
    }

    public func callbackRoutes(_ receipts: DeliveryReceipts, publicURL: String, clock: any Clock) -> [any RouteCollection] {
        callbacks().map { [$0.routes(receipts)] } ?? []
    }

    /// The webhook's checks and parser; nil without an app secret and a verify token.
    public func callbacks() -> MetaCallbacks? {
        guard let meta = whatsApp, meta.appSecret != nil || meta.verifyToken != nil else { return nil }
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
        return MetaCallbacks(challenge: challenge, verify: verify, statuses: statuses)
    }
}
