import Dispatch
import VerifyCore

/// The outcome buffer: outcomes of messages sent close together are written in one store
/// transaction (see `record`).
extension DeliveryWorker {
    /// Buffers an outcome; writes the buffer when it holds a batch or its oldest outcome is
    /// 10 ms old. Under load, completions of many messages share one store transaction; a crash
    /// re-sends at most those ~10 ms of messages (their leases lapse). `region`: the destination's,
    /// when the payload in hand says it (the metric then parses nothing).
    func record(_ outcome: OutboxOutcome, of message: OutboxMessage, region: String? = nil) {
        let event = configuration.events?.delivery(message, outcome: outcome)
        if outcome.status == .sent || outcome.status == .failed {
            configuration.sink.record(
                .delivery(gateway: outcome.gateway ?? "none", status: outcome.status.rawValue, to: message.to, channel: message.channel,
                          region: region))
        }
        condition.lock()
        let now = DispatchTime.now().uptimeNanoseconds  // read under the lock: never before `oldestCompletion`
        if completions.isEmpty {
            oldestCompletion = now
            condition.signal()  // an idle thread writes the buffer when it is due
        }
        completions.append(outcome)
        if let event { completionEvents[outcome.messageID] = event }
        inFlight.remove(outcome.messageID)
        let due = completions.count >= configuration.batchSize || now - oldestCompletion >= Self.completionDelay
        let ready = due ? completions : []
        let events = due ? completionEvents : [:]
        if due {
            completions.removeAll(keepingCapacity: true)
            completionEvents.removeAll()
        }
        condition.unlock()
        write(ready, events: events)
    }

    /// Writes every buffered outcome.
    func flushCompletions() {
        condition.lock()
        let ready = completions
        let events = completionEvents
        completions.removeAll(keepingCapacity: true)
        completionEvents.removeAll()
        condition.unlock()
        write(ready, events: events)
    }

    private func write(_ outcomes: [OutboxOutcome], events: [String: WebhookEvent]) {
        guard !outcomes.isEmpty else { return }
        do {
            try outbox.complete(outcomes, owner: owner, events: events)
        } catch {
            logger.error("outbox completion failed; messages will be retried after their lease", [("error", String(describing: error))])
        }
    }
}
