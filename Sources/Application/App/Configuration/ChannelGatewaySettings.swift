import Gateways
import SettingsTable
import Vendors

/// The WhatsApp and voice gateway chains and their vendors' settings (`Settings+Channels.swift`,
/// read by `Configuration.readChannels`). A vendor's settings are set only when its gateway is
/// in a chain; account credentials are copied from the SMS settings they share.
public struct ChannelGatewaySettings: Sendable {
    /// `PHONE_VERIFY_WHATSAPP_GATEWAYS` in failover order; empty: no WhatsApp chain.
    public var whatsApp: [String] = []
    /// `PHONE_VERIFY_VOICE_GATEWAYS` in failover order; empty: no voice chain.
    public var voice: [String] = []
    public var ringTimeout: Int?
    public var meta: MetaSettings?
    public var twilioWhatsApp: TwilioWhatsAppSettings?
    public var vonageWhatsApp: VonageWhatsAppSettings?
    public var twilioVoice: TwilioVoiceSettings?
    public var vonageVoice: VonageVoiceSettings?
    /// Checks the JWT of Vonage's WhatsApp status and call event webhooks.
    public var vonageSignatureSecret: String?
    /// The `token` query parameter of Vonage's webhooks (`PHONE_VERIFY_VONAGE_CALLBACK_TOKEN`).
    public var vonageCallbackToken: String?

    public init() {}

    /// Whether the WhatsApp or voice chain uses `gateway` of a vendor ("twilio", "vonage", "webhook").
    func uses(_ gateway: String) -> Bool { whatsApp.contains(gateway) || voice.contains(gateway) }
}
