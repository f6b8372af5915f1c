import Gateways
import SettingsTable
import VerifyCore

extension WebhookVendor {
    public static let name = "webhook"
    public static let channels: [Channel] = [.sms, .whatsapp, .call]

    /// Its URL and secret when any gateway list names `webhook` (one endpoint for every channel).
    public static func read(_ reader: inout SettingReader, lists: GatewayLists) -> WebhookVendor {
        guard channels.contains(where: { lists.names(name, for: $0) }) else { return WebhookVendor(settings: nil) }
        let user = "the webhook gateway"
        let url = reader.required(Table.url, for: user) ?? ""
        return WebhookVendor(settings: WebhookSettings(url: url, secret: reader.required(Table.secret, for: user)?.text ?? ""))
    }

    /// Production rule of the secret: Standard Webhooks keys are 24 to 64 bytes, and a short one
    /// can be guessed offline from one signature.
    static func weakSecret(_ vendor: WebhookVendor) -> String? {
        guard let secret = vendor.settings?.secret, (WebhookSecret(secret).key?.count ?? 0) < 24 else { return nil }
        return "must hold a key of at least 24 bytes in production mode"
    }
}

extension SettingType where Value == WebhookSecret {
    static var webhookSecret: Self {
        Self("whsec_ + base64 key, or any string") { text in
            let secret = WebhookSecret(text)
            return (secret, secret.key == nil ? ["\(WebhookSecret.prefix) must be followed by the key in base64"] : [])
        }
    }
}
