import CurlClient
import Foundation
import Gateways
import Telemetry
import VerifyCore

/// The events for the main auth server (docs/EVENTS.md): the recorder the domain writes them
/// with, built at once (the delivery worker and the API need it), and the senders, started after
/// the store and the delivery service (whose registry serves the metrics) and stopped before
/// them. With no events URL there is neither: nothing is written, nothing runs.
final class EventService: ApplicationService {
    let configuration: Configuration
    let store: StoreService
    let delivery: DeliveryService
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
    /// Nil when events are off.
    let recorder: EventRecorder?
    private var worker: EventDeliveryWorker?

    init(
        configuration: Configuration, store: StoreService, delivery: DeliveryService, clock: any Clock, random: any RandomSource,
        logger: Logger
    ) {
        self.configuration = configuration
        self.store = store
        self.delivery = delivery
        self.clock = clock
        self.random = random
        self.logger = logger
        recorder = configuration.events.map {
            EventRecorder(types: $0.types, random: random, fraudWindow: configuration.fraud.window)
        }
    }

    func start() throws {
        guard let settings = configuration.events else { return }
        guard let outbox = store.store as? any EventOutboxStore else {
            throw EventServiceError(description: "events need a store with an events outbox (SQLite or PostgreSQL)")
        }
        let client = HTTPClient(configuration: HTTPClientConfiguration(
            connectTimeout: min(3, Double(settings.timeout)), totalTimeout: Double(settings.timeout), allowedSchemes: ["https", "http"]))
        let sender = EventSender(url: settings.url, secret: settings.secret, client: client, clock: clock, timeout: Double(settings.timeout))
        var tuning = EventDeliveryConfiguration()
        tuning.threads = settings.threads
        tuning.maxAttempts = settings.maxAttempts
        tuning.maxAge = Double(settings.maxAge)
        tuning.sendTimeout = Double(settings.timeout)
        let worker = EventDeliveryWorker(
            store: outbox, sender: sender, clock: clock, random: random, logger: logger, metrics: delivery.metrics.registry,
            configuration: tuning)
        self.worker = worker
        worker.start()
        logger.info("events enabled", [("types", settings.types.map(\.rawValue).sorted().joined(separator: ","))])
    }

    func stop() {
        worker?.stop()
    }
}

struct EventServiceError: Error, CustomStringConvertible {
    let description: String
}
