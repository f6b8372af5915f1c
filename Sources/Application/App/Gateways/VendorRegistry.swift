import Vendors

/// Every vendor PhoneVerify can send through, each built from its configured settings (nil
/// parts: its gateway is in no chain). Gateway chains and callback routes are built from this
/// list: a vendor's folder (`Sources/Vendors/<Vendor>`) plus its line here is the whole of
/// adding it (docs/CONTRIBUTING.md, "Add a vendor").
enum VendorRegistry {
    static func vendors(_ c: Configuration) -> [any Vendor] {
        let g = c.channelGateways
        return [
            TwilioVendor(sms: c.twilio, whatsApp: g.twilioWhatsApp, voice: g.twilioVoice),
            VonageVendor(sms: c.vonage, whatsApp: g.vonageWhatsApp, voice: g.vonageVoice, signatureSecret: g.vonageSignatureSecret, callbackToken: g.vonageCallbackToken),
            MetaVendor(whatsApp: g.meta),
            WebhookVendor(settings: c.webhook),
        ]
    }
}
