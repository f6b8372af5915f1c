import Gateways
import SettingsTable
import Vendors

extension Configuration {
    /// The SMS gateway chain, each vendor's settings (required only when its gateway is in the
    /// chain) and delivery (`Settings+Gateways.swift`).
    mutating func readGateways(_ reader: inout SettingReader) {
        gateways = reader.value(Settings.gateways)
        publicURL = reader(Settings.publicURL)
        if gateways.contains("twilio") {
            let user = "the twilio gateway"
            let sid = reader.required(Settings.twilioAccountSID, for: user) ?? ""
            let token = reader.required(Settings.twilioAuthToken, for: user) ?? ""
            let from = reader.required(Settings.twilioFrom, for: user) ?? ""
            twilio = TwilioSettings(
                baseURL: reader.value(Settings.twilioBaseURL), accountSID: sid, authToken: token, from: from)
        }
        if gateways.contains("vonage") {
            let user = "the vonage gateway"
            let key = reader.required(Settings.vonageAPIKey, for: user) ?? ""
            let secret = reader.required(Settings.vonageAPISecret, for: user) ?? ""
            let from = reader.required(Settings.vonageFrom, for: user) ?? ""
            vonage = VonageSettings(
                baseURL: reader.value(Settings.vonageBaseURL), apiKey: key, apiSecret: secret,
                from: from, callbackToken: reader(Settings.vonageCallbackToken))
        }
        if gateways.contains("webhook") {
            let user = "the webhook gateway"
            let url = reader.required(Settings.webhookURL, for: user) ?? ""
            webhook = WebhookSettings(url: url, secret: reader.required(Settings.webhookSecret, for: user)?.text ?? "")
        }
        gatewayTimeout = Double(reader.value(Settings.gatewayTimeout))
        gatewayConnectTimeout = Double(reader.value(Settings.gatewayConnectTimeout))
        circuitFailures = reader.value(Settings.circuitFailures)
        circuitCooldown = reader.value(Settings.circuitCooldown)
        deliveryThreads = reader.value(Settings.deliveryThreads)
        deliveryMaxAttempts = reader.value(Settings.deliveryMaxAttempts)
    }

    /// Production rule of the webhook secret: Standard Webhooks keys are 24 to 64 bytes, and a
    /// short one can be guessed offline from one signature.
    static func weakWebhookSecret(_ configuration: Configuration) -> String? {
        guard let secret = configuration.webhook?.secret, (WebhookSecret(secret).key?.count ?? 0) < 24 else { return nil }
        return "must hold a key of at least 24 bytes in production mode"
    }
}
