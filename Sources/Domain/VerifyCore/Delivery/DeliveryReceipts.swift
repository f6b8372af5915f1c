import Foundation

/// Applies providers' delivery receipts (status callbacks) to outbox messages.
public struct DeliveryReceipts: Sendable {
    let outbox: any OutboxStore
    let clock: any Clock
    /// Writes `delivery.updated` with each receipt that changes a message; nil when events are off.
    let eventRecorder: EventRecorder?
    /// Counts each receipt that changed a message (the delivery metric).
    let sink: any EventSink

    public init(outbox: any OutboxStore, clock: any Clock, eventRecorder: EventRecorder? = nil, sink: any EventSink = NoEvents()) {
        self.outbox = outbox
        self.clock = clock
        self.eventRecorder = eventRecorder
        self.sink = sink
    }

    /// Returns false when no message of `gateway` has that provider id yet: the receipt is held
    /// and applied once the send's result is recorded.
    @discardableResult
    /// `to`: the recipient the receipt names (E.164), for the metric's country only.
    public func record(gateway: String, providerMessageID: String, status: DeliveryStatus, error: String?, to: String? = nil) throws -> Bool {
        let now = clock.now()
        let event = eventRecorder?.receipt(gateway: gateway, providerMessageID: providerMessageID, status: status, error: error, at: now)
        let applied = try outbox.recordReceipt(
            gateway: gateway, providerMessageID: providerMessageID, status: status, error: error, at: now, event: event)
        // A receipt `sent` repeats what the delivery worker counted when it sent the message.
        if applied, status != .sent {
            sink.record(.delivery(gateway: gateway, status: status.rawValue, to: to ?? "", channel: Channel.of(gateway: gateway)))
        }
        return applied
    }
}
