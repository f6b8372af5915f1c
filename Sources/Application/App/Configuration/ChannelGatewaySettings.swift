/// The WhatsApp and voice gateway chains (`Settings+Channels.swift`, read by
/// `Configuration.readChannels`); the vendors they name read their own settings
/// (`Configuration.vendors`).
public struct ChannelGatewaySettings: Sendable {
    /// `PHONE_VERIFY_WHATSAPP_GATEWAYS` in failover order; empty: no WhatsApp chain.
    public var whatsApp: [String] = []
    /// `PHONE_VERIFY_VOICE_GATEWAYS` in failover order; empty: no voice chain.
    public var voice: [String] = []
    public var ringTimeout: Int?

    public init() {}
}
