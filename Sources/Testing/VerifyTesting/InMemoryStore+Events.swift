import Foundation
import VerifyCore

/// One row of the in-memory events outbox.
struct StoredEvent {
    var event: WebhookEvent
    var status: EventOutcome.Status = .queued
    var attempts = 0
    var lastError: String?
    var updatedAt: Date
    var nextAttemptAt: Date
    var lease: (owner: String, until: Date)?
}

extension InMemoryStore.State {
    /// Queues `event` unless its id is already there.
    mutating func insertEvent(_ event: WebhookEvent) {
        guard !events.contains(where: { $0.event.id == event.id }) else { return }
        events.append(StoredEvent(event: event, updatedAt: event.createdAt, nextAttemptAt: event.createdAt))
    }
}

extension InMemoryStore {
    /// Every event in the outbox (any status), oldest first.
    public var events: [WebhookEvent] { withState { $0.events.map(\.event) } }

    /// The status of the event `id`, if it is stored.
    public func eventStatus(id: String) -> (status: EventOutcome.Status, attempts: Int)? {
        withState { state in state.events.first { $0.event.id == id }.map { ($0.status, $0.attempts) } }
    }

    public func claimEvents(limit: Int, now: Date, leaseUntil: Date, owner: String) throws -> [PendingEvent] {
        withState { state in
            var claimed: [PendingEvent] = []
            for i in state.events.indices where claimed.count < limit {
                let e = state.events[i]
                guard e.status == .queued, e.nextAttemptAt <= now, (e.lease?.until).map({ $0 < now }) ?? true else { continue }
                state.events[i].lease = (owner, leaseUntil)
                claimed.append(PendingEvent(event: e.event, attempts: e.attempts))
            }
            return claimed
        }
    }

    public func completeEvents(_ outcomes: [EventOutcome], owner: String) throws {
        withState { state in
            for o in outcomes {
                guard let i = state.events.firstIndex(where: { $0.event.id == o.eventID }), state.events[i].lease?.owner == owner,
                      state.events[i].status == .queued
                else { continue }
                state.events[i].status = o.status
                state.events[i].attempts = o.attempts
                state.events[i].lastError = o.lastError
                state.events[i].updatedAt = o.at
                if let next = o.nextAttemptAt { state.events[i].nextAttemptAt = next }
                state.events[i].lease = nil
            }
        }
    }

    public func releaseEventLeases(owner: String) throws {
        withState { state in
            for i in state.events.indices where state.events[i].lease?.owner == owner { state.events[i].lease = nil }
        }
    }

    public func pendingEvents() throws -> Int {
        withState { state in state.events.filter { $0.status == .queued }.count }
    }
}
