import API
import Credentials
import Foundation
import Gateways
import Telemetry
import VerifyCore

/// What `Application.start` leaves running: the services, and the parts its accessors read.
struct RunningApplication {
    let services: ServiceGroup
    let listener: HTTPListenerService
    let delivery: DeliveryService
}

extension Application {
    /// Builds every part in dependency order, each from values built before it, and adds each
    /// running part to `services` as soon as it runs (store, HTTP listener, delivery worker,
    /// event senders); opens the API to traffic last.
    func assemble(into services: ServiceGroup) throws -> RunningApplication {
        let c = configuration
        let store = services.add(try StoreService(configuration: c))
        let secrets = try Secrets(configuration: c)
        let listener = services.add(try HTTPListenerService(configuration: c))
        let metrics = MetricsSink(registry: MetricsRegistry(), numberRanges: c.numberRanges, now: { [clock] in clock.now() })
        let gateway = GatewayFactory.make(
            c, publicURL: listener.publicURL, clock: clock, logger: logger, consoleOutput: consoleOutput, events: metrics)
        metrics.watch(outbox: store.store, gateway: gateway, clock: clock)
        let eventRecorder = c.events.map { EventRecorder(types: $0.types, random: random, fraudWindow: c.fraud.window) }
        let delivery = services.add(DeliveryService(
            configuration: c,
            parts: DeliveryService.Parts(
                outbox: store.store, gateway: gateway, sealer: secrets.sealer, metrics: metrics,
                devInbox: c.mode == .development ? DevInbox() : nil, eventRecorder: eventRecorder),
            clock: clock, random: random, logger: logger))
        if let settings = c.events {
            services.add(try EventService(
                settings: settings, store: store.store, metrics: metrics.registry, clock: clock, random: random, logger: logger))
        }
        let signingKeys = try SigningKeys(configuration: c, signer: secrets.signer, store: store.store, clock: clock, logger: logger)
        let dependencies = try APIWiring.dependencies(
            c, store: store, secrets: secrets, listener: listener, delivery: delivery, keyRing: signingKeys.keyRing, clock: clock,
            random: random, logger: logger)
        if signingKeys.replacedActiveKey {
            // A replica that read the store just before this activation serves its cached key set
            // for up to a second; credentials signed with the new key wait until it has reread.
            logger.info("a new signing key replaced the active one; serving once other replicas publish it", [("kid", secrets.signer.keyID)])
            Thread.sleep(forTimeInterval: StoreKeyRing.forcedRefreshInterval + 0.1)
        }
        listener.open(to: APIResponder(dependencies))
        logger.info("listening", [
            ("address", "\(c.listenHost):\(listener.port)"), ("mode", c.mode.rawValue), ("issuer", listener.issuer),
            ("kid", secrets.signer.keyID), ("database", store.opened.description),
        ])
        return RunningApplication(services: services, listener: listener, delivery: delivery)
    }
}
