import VerifyCore

/// Sends each message through its channel's failover chain (`PHONE_VERIFY_GATEWAYS` for SMS,
/// `PHONE_VERIFY_WHATSAPP_GATEWAYS`, `PHONE_VERIFY_VOICE_GATEWAYS`): each chain has its own
/// circuit breakers, so a WhatsApp vendor's outage never opens an SMS gateway's circuit.
public struct ChannelRouter: MessageGateway {
    public let name = "channels"
    public let chains: [Channel: FailoverGateway]

    public init(_ chains: [Channel: FailoverGateway]) {
        self.chains = chains
    }

    /// The channels that have a chain.
    public var channels: Set<Channel> { Set(chains.keys) }

    public func send(_ message: OutboundMessage) -> GatewayResult {
        guard let chain = chains[message.channel] else {
            // Configuration check refuses an enabled channel without gateways; a message queued
            // before a restart that removed them lands here.
            return .permanent(reason: "no gateway is configured for the \(message.channel.rawValue) channel")
        }
        return chain.send(message)
    }

    /// Every member's circuit state, by channel and gateway name, for readiness and metrics.
    public func circuitStates() -> [(channel: Channel, gateway: String, state: CircuitBreaker.State)] {
        chains.keys.sorted().flatMap { channel in
            (chains[channel]?.circuitStates() ?? []).map { (channel, $0.gateway, $0.state) }
        }
    }
}
