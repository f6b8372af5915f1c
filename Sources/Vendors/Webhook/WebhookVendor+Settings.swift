import Gateways
import SettingsTable

/// Webhook's entries in the settings table (docs/CONFIGURATION.md is generated from them).
extension WebhookVendor {
    public enum Table {
        public static let url = Setting<String>(
            "PHONE_VERIFY_WEBHOOK_URL", .gateways, .url, default: "(none)",
            "generic webhook gateway URL (JSON, Standard Webhooks signature)",
            production: .httpsOrLoopback(of: WebhookVendor.self) { $0.settings?.url })

        public static let secret = Setting<WebhookSecret>(
            "PHONE_VERIFY_WEBHOOK_SECRET", .gateways, .webhookSecret, default: "(none)",
            "Standard Webhooks secret (whsec_…) for the webhook gateway",
            secret: true, production: .check(of: WebhookVendor.self, WebhookVendor.weakSecret))
    }

    public static var settings: [any SettingEntry] {
        [Table.url, Table.secret]
    }
}
