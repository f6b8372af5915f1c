import Dispatch
import VerifyCore

/// Messages superseded (resend, cancel, approval) while this worker holds them in memory.
///
/// Only a start hands a message over in memory, and a verification's later messages (resends)
/// go through the store, so every message held in memory for a superseded verification is one
/// that must not be sent: its row is already `failed` ("superseded"), it is never claimed again
/// and no completion touches it. Best effort: a message already with the gateway goes out, and
/// another replica's memory is not reached.
extension DeliveryWorker {
    /// Called after a commit that superseded `verificationID`'s queued messages: drops its
    /// messages waiting in memory, and remembers it for a lease's time, so one that a sending
    /// thread has taken (behind a slow gateway call) or that is handed over late is dropped too.
    /// Every approval calls this, so it is O(1) amortised and bounded: entries leave in the order
    /// they came, when expired or beyond ``supersededCapacity`` (a late hand-off arrives within
    /// milliseconds, so only the newest entries matter).
    public func messagesSuperseded(verificationID: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        condition.lock()
        defer { condition.unlock() }
        if !handed.isEmpty {
            handed.removeAll { $0.message.verificationID == verificationID }
            handedCount.store(handed.count, ordering: .relaxed)
        }
        while supersededHead < supersededOrder.count,
            supersededOrder[supersededHead].until <= now || supersededHeld.count >= Self.supersededCapacity
        {
            let old = supersededOrder[supersededHead]
            if supersededHeld[old.verificationID] == old.until { supersededHeld[old.verificationID] = nil }
            supersededHead += 1
        }
        if supersededHead >= 1024 && supersededHead * 2 >= supersededOrder.count {
            supersededOrder.removeFirst(supersededHead)
            supersededHead = 0
        }
        let until = now + UInt64(configuration.leaseSeconds) * 1_000_000_000
        supersededHeld[verificationID] = until
        supersededOrder.append((verificationID, until))
    }

    public static let supersededCapacity = 4096

    /// Whether `verificationID` was superseded within a lease's time. Callers hold `condition`.
    func isSupersededLocked(_ verificationID: String) -> Bool {
        guard let until = supersededHeld[verificationID] else { return false }
        return DispatchTime.now().uptimeNanoseconds < until
    }

    /// For a message taken from memory: true (and it is no longer in flight) when its
    /// verification was superseded since.
    func dropIfSuperseded(_ message: OutboxMessage) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard isSupersededLocked(message.verificationID) else { return false }
        inFlight.remove(message.id)
        return true
    }

    /// For a message claimed from the store: false when it must not be sent. A superseded one
    /// (its row already says so) leaves the in-flight set; one whose verification ended (approved,
    /// out of attempts) is recorded as failed. A failed read sends it (as before the check).
    func isStillQueued(_ message: OutboxMessage) -> Bool {
        switch (try? outbox.claimedMessageState(messageID: message.id, owner: owner)) ?? .deliverable {
        case .deliverable:
            return true
        case .superseded:
            condition.lock()
            inFlight.remove(message.id)
            condition.unlock()
            return false
        case .verificationEnded:
            record(OutboxOutcome(
                messageID: message.id, status: .failed, gateway: nil, providerMessageID: nil,
                lastError: "verification ended before delivery", nextAttemptAt: nil, attempts: message.attempts, at: clock.now()),
                of: message)
            return false
        }
    }
}
