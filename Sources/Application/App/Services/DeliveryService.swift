import Foundation
import Gateways
import Telemetry
import VerifyCore

/// The delivery worker's threads, which send what the store's outbox holds through the gateway
/// chain. Started after the listener (callback URLs need its address) and stopped after it has
/// drained, so a request still in flight at shutdown hands its message to a running worker.
final class DeliveryService: ApplicationService {
    /// The gateway chain (for readiness, metrics and the console).
    let gateway: ChannelRouter
    let worker: DeliveryWorker
    /// Domain events become metrics here; `/metrics` serves its registry.
    let metrics: MetricsSink
    /// In development mode, the record of sent messages (the dev inbox reads it).
    let devInbox: DevInbox?
    /// Writes `delivery.updated` with recorded sends; nil when events are off.
    let eventRecorder: EventRecorder?

    struct Parts {
        let outbox: any OutboxStore
        let gateway: ChannelRouter
        let sealer: any MessageSealer
        let metrics: MetricsSink
        let devInbox: DevInbox?
        let eventRecorder: EventRecorder?
    }

    /// Starts the worker's threads.
    init(configuration c: Configuration, parts: Parts, clock: any Clock, random: any RandomSource, logger: Logger) {
        gateway = parts.gateway
        metrics = parts.metrics
        devInbox = parts.devInbox
        eventRecorder = parts.eventRecorder
        var delivery = DeliveryConfiguration()
        delivery.retention = Double(c.retention)
        delivery.idempotencyWindow = Double(c.policy.idempotencyWindow)
        delivery.threads = c.deliveryThreads
        delivery.maxAttempts = c.deliveryMaxAttempts
        delivery.events = parts.eventRecorder
        delivery.sink = parts.metrics
        worker = DeliveryWorker(
            outbox: parts.outbox, gateway: parts.gateway, sealer: parts.sealer, clock: clock, random: random,
            logger: logger, devLog: parts.devInbox, configuration: delivery)
        worker.start()
    }

    func stop() {
        worker.stop()
    }
}
