import API
import CurlClient
import Gateways
import Telemetry
import Vendors
import VerifyCore

/// Builds the configured gateway chains, one per channel, each in failover order with its own
/// circuit breakers (`PHONE_VERIFY_GATEWAYS`, `PHONE_VERIFY_WHATSAPP_GATEWAYS`,
/// `PHONE_VERIFY_VOICE_GATEWAYS`), and the vendors' status-callback routes: each name in a list
/// is the console sink or a vendor of `VendorRegistry`.
enum GatewayFactory {
    static func make(
        _ c: Configuration, publicURL: String, clock: any Clock, logger: Logger, consoleOutput: (@Sendable (String) -> Void)?,
        events: any EventSink
    ) -> ChannelRouter {
        let client = HTTPClient(configuration: HTTPClientConfiguration(
            connectTimeout: c.gatewayConnectTimeout, totalTimeout: c.gatewayTimeout))
        let http = GatewayHTTP(client: client, timeout: c.gatewayTimeout, connectTimeout: c.gatewayConnectTimeout)
        let context = VendorContext(
            publicURL: publicURL, http: http, clock: clock, appName: c.appName, ringTimeout: c.channelGateways.ringTimeout,
            voiceLines: c.voiceLines)
        let vendors = c.vendors
        let chain = { (channel: Channel, names: [String]) in
            let members = names.compactMap { name -> (any MessageGateway)? in
                if name == "console" { return ConsoleSink(output: consoleOutput) }
                return vendors.first { $0.name == name }?.gateway(for: channel, context)
            }
            return FailoverGateway(members, clock: clock, logger: logger, threshold: c.circuitFailures, cooldown: Double(c.circuitCooldown), events: events)
        }
        var chains: [Channel: FailoverGateway] = [.sms: chain(.sms, c.gateways)]
        if !c.channelGateways.whatsApp.isEmpty { chains[.whatsapp] = chain(.whatsapp, c.channelGateways.whatsApp) }
        if !c.channelGateways.voice.isEmpty { chains[.call] = chain(.call, c.channelGateways.voice) }
        return ChannelRouter(chains)
    }

    /// The vendors' status-callback routes for the configured gateways of every channel.
    static func callbackRoutes(_ c: Configuration, receipts: DeliveryReceipts, publicURL: String, clock: any Clock) -> [any RouteCollection] {
        c.vendors.flatMap { $0.callbackRoutes(receipts, publicURL: publicURL, clock: clock) }
    }
}
