import API
import Gateways
import VerifyCore

/// The generic webhook (`webhook` in any gateway list): one signed JSON POST per message, for
/// every channel, to a service of the operator's own (docs/GATEWAYS.md). It reports no
/// delivery statuses, so it has no callback routes.
public struct WebhookVendor: Vendor {
    public let settings: WebhookSettings?

    public init(settings: WebhookSettings?) {
        self.settings = settings
    }

    public func gateway(for channel: Channel, _ context: VendorContext) -> (any MessageGateway)? {
        guard let w = settings else { return nil }
        return WebhookGateway(configuration: WebhookConfiguration(url: w.url, secret: w.secret), http: context.http, clock: context.clock)
    }

    public func callbackRoutes(_ receipts: DeliveryReceipts, publicURL: String, clock: any Clock) -> [any RouteCollection] { [] }
}

/// The webhook's URL and Standard Webhooks secret (`PHONE_VERIFY_WEBHOOK_URL`,
/// `PHONE_VERIFY_WEBHOOK_SECRET`, read by its vendor's `read` from its entries).
public struct WebhookSettings: Sendable {
    public var url, secret: String

    public init(url: String, secret: String) {
        self.url = url
        self.secret = secret
    }
}
