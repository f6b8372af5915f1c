import Dispatch
import VerifyCore

/// The outcome buffer: outcomes of messages sent close together are written in one store
/// transaction (see `record`).
extension DeliveryWorker {
    /// Buffers an outcome; writes the buffer when it holds a batch or its oldest outcome is
    /// 10 ms old. Under load, completions of many messages share one store transaction; a crash
    /// re-sends at most those ~10 ms of messages (their leases lapse).
    func record(_ outcome: OutboxOutcome) {
        condition.lock()
        let now = DispatchTime.now().uptimeNanoseconds  // read under the lock: never before `oldestCompletion`
        if completions.isEmpty {
            oldestCompletion = now
            condition.signal()  // an idle thread writes the buffer when it is due
        }
        completions.append(outcome)
        inFlight.remove(outcome.messageID)
        let due = completions.count >= configuration.batchSize || now - oldestCompletion >= Self.completionDelay
        let ready = due ? completions : []
        if due { completions.removeAll(keepingCapacity: true) }
        condition.unlock()
        write(ready)
    }

    /// Writes every buffered outcome.
    func flushCompletions() {
        condition.lock()
        let ready = completions
        completions.removeAll(keepingCapacity: true)
        condition.unlock()
        write(ready)
    }

    private func write(_ outcomes: [OutboxOutcome]) {
        guard !outcomes.isEmpty else { return }
        do {
            try outbox.complete(outcomes, owner: owner)
        } catch {
            logger.error("outbox completion failed; messages will be retried after their lease", [("error", String(describing: error))])
        }
    }
}
