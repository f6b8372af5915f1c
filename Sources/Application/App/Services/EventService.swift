import CurlClient
import Foundation
import Gateways
import SettingsTable
import Telemetry
import VerifyCore

/// The senders of the events for the main auth server (docs/EVENTS.md), started after the store
/// and the delivery worker and stopped before them. Only built when an events URL is set; the
/// recorder the domain writes events with is built before the delivery worker (which records
/// `delivery.updated`) and passed to it and to the API.
final class EventService: ApplicationService {
    private let worker: EventDeliveryWorker

    /// Starts the sender threads.
    init(
        settings: Configuration.EventSettings, store: any AppStore, metrics: MetricsRegistry, clock: any Clock,
        random: any RandomSource, logger: Logger
    ) throws {
        guard let outbox = store as? any EventOutboxStore else {
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
        worker = EventDeliveryWorker(
            store: outbox, sender: sender, clock: clock, random: random, logger: logger, metrics: metrics, configuration: tuning)
        worker.start()
        logger.info("events enabled", [("types", settings.types.map(\.rawValue).sorted().joined(separator: ","))])
    }

    func stop() {
        worker.stop()
    }
}

struct EventServiceError: Error, CustomStringConvertible {
    let description: String
}
