import Foundation

/// The kinds of event the main auth server and analytics receive (docs/EVENTS.md).
public enum EventType: String, Sendable, CaseIterable, Hashable {
    case verificationStarted = "verification.started"
    case verificationApproved = "verification.approved"
    case verificationFailed = "verification.failed"
    case verificationCanceled = "verification.canceled"
    case deliveryUpdated = "delivery.updated"
    case factorEnrolled = "mfa.factor.enrolled"
    case factorDeleted = "mfa.factor.deleted"
    case fraudPaused = "fraud.paused"
}

/// One event queued in the events outbox, written in the transaction of the change it reports.
/// `body` is the exact JSON that is signed and POSTed (`{"type", "timestamp", "data"}`).
public struct WebhookEvent: Sendable, Equatable {
    /// `webhook-id`: the same on every retry, so receivers de-duplicate by it.
    public let id: String
    public let type: EventType
    public let createdAt: Date
    public let body: String

    public init(id: String, type: EventType, createdAt: Date, body: String) {
        self.id = id
        self.type = type
        self.createdAt = createdAt
        self.body = body
    }
}

/// A queued event claimed by a sender, with its delivery history.
public struct PendingEvent: Sendable, Equatable {
    public let event: WebhookEvent
    /// POSTs tried so far.
    public let attempts: Int

    public init(event: WebhookEvent, attempts: Int) {
        self.event = event
        self.attempts = attempts
    }
}

/// What happened to one claimed event.
public struct EventOutcome: Sendable, Equatable {
    public enum Status: String, Sendable {
        /// The receiver answered 2xx: delivered, purged after the retention period.
        case delivered
        /// To be tried again at `nextAttemptAt`.
        case queued
        /// Gave up (too many attempts or too old).
        case failed
    }

    public let eventID: String
    public let status: Status
    public let attempts: Int
    public let nextAttemptAt: Date?
    public let lastError: String?
    public let at: Date

    public init(eventID: String, status: Status, attempts: Int, nextAttemptAt: Date?, lastError: String?, at: Date) {
        self.eventID = eventID
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.at = at
    }
}

/// The events outbox, for the senders (every replica may run one: claims are leased).
public protocol EventOutboxStore: Sendable {
    /// Claims up to `limit` queued events due at `now` whose lease is free or lapsed, for `owner`
    /// until `leaseUntil`. An event is never handed to two senders while its lease holds.
    func claimEvents(limit: Int, now: Date, leaseUntil: Date, owner: String) throws -> [PendingEvent]
    /// Records outcomes of events this owner claimed, and releases their leases.
    func completeEvents(_ outcomes: [EventOutcome], owner: String) throws
    /// Releases the leases this owner still holds (graceful stop).
    func releaseEventLeases(owner: String) throws
    /// Number of events waiting to be delivered.
    func pendingEvents() throws -> Int
}
