import Foundation
import Gateways
import Telemetry
import VerifyCore

/// The gateway chain and the delivery worker's threads, which send what the store's outbox holds.
/// Started after the listener (callback URLs need its address) and stopped after it has drained,
/// so a request still in flight at shutdown hands its message to a running worker.
final class DeliveryService: ApplicationService {
    let configuration: Configuration
    let store: StoreService
    let secrets: SecretsService
    let listener: HTTPListenerService
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
    let consoleOutput: (@Sendable (String) -> Void)?
    /// Domain events become metrics here; `/metrics` serves its registry.
    let metrics: MetricsSink
    /// In development mode, the record of sent messages (the dev inbox reads it).
    let devInbox: DevInbox?
    private(set) var gateway: ChannelRouter!
    private(set) var worker: DeliveryWorker!
    /// Writes `delivery.updated` with recorded sends (set before `start`; nil when events are off).
    var eventRecorder: EventRecorder?

    init(
        configuration: Configuration, store: StoreService, secrets: SecretsService, listener: HTTPListenerService, clock: any Clock,
        random: any RandomSource, logger: Logger, consoleOutput: (@Sendable (String) -> Void)?
    ) {
        self.configuration = configuration
        self.store = store
        self.secrets = secrets
        self.listener = listener
        self.clock = clock
        self.random = random
        self.logger = logger
        self.consoleOutput = consoleOutput
        devInbox = configuration.mode == .development ? DevInbox() : nil
        metrics = MetricsSink(registry: MetricsRegistry(), numberRanges: configuration.numberRanges, now: { [clock] in clock.now() })
    }

    func start() throws {
        let c = configuration
        let gateway = GatewayFactory.make(
            c, publicURL: listener.publicURL, clock: clock, logger: logger, consoleOutput: consoleOutput, events: metrics)
        metrics.watch(outbox: store.store, gateway: gateway, clock: clock)
        self.gateway = gateway
        var delivery = DeliveryConfiguration()
        delivery.retention = Double(c.retention)
        delivery.idempotencyWindow = Double(c.policy.idempotencyWindow)
        delivery.threads = c.deliveryThreads
        delivery.maxAttempts = c.deliveryMaxAttempts
        delivery.events = eventRecorder
        delivery.sink = metrics
        let worker = DeliveryWorker(
            outbox: store.store, gateway: gateway, sealer: secrets.sealer, clock: clock, random: random,
            logger: logger, devLog: devInbox, configuration: delivery)
        self.worker = worker
        worker.start()
    }

    func stop() {
        worker.stop()
    }
}
