import API
import Gateways
import VerifyCore

/// Telnyx (`telnyx` in `PHONE_VERIFY_GATEWAYS`): SMS through the Messaging API. Its delivery
/// webhooks are not used, so it has no callback routes; the outbox records it as sent.
public struct TelnyxVendor: Vendor {
    public let settings: TelnyxSettings?

    public init(settings: TelnyxSettings?) {
        self.settings = settings
    }

    public func gateway(for channel: Channel, _ context: VendorContext) -> (any MessageGateway)? {
        guard channel == .sms, let t = settings else { return nil }
        return TelnyxGateway(
            configuration: TelnyxConfiguration(apiKey: t.apiKey, from: t.from, messagingProfileID: t.messagingProfileID, baseURL: t.baseURL),
            http: context.http)
    }

    public func callbackRoutes(_ receipts: DeliveryReceipts, publicURL: String, clock: any Clock) -> [any RouteCollection] { [] }
}

/// Telnyx's API key, sender and messaging profile (`PHONE_VERIFY_TELNYX_*`, read by
/// `TelnyxVendor.read` from its settings-table entries).
public struct TelnyxSettings: Sendable {
    public var baseURL, apiKey, from: String
    public var messagingProfileID: String?

    public init(baseURL: String, apiKey: String, from: String, messagingProfileID: String?) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.from = from
        self.messagingProfileID = messagingProfileID
    }
}
