import Foundation

/// Verifications started and approved in one period, per country and requested channel: a point
/// of the console's conversion chart.
public struct ConversionPoint: Sendable, Equatable {
    public let start: Date
    public let region: String
    public let channel: String
    public let started: Int
    public let approved: Int

    public init(start: Date, region: String, channel: String, started: Int, approved: Int) {
        self.start = start
        self.region = region
        self.channel = channel
        self.started = started
        self.approved = approved
    }
}

/// The outboxes as an operator reads them in an outage.
public struct OutboxBacklog: Sendable, Equatable {
    /// Messages queued and due (or retrying): the ones that are late if they stay.
    public let due: Int
    /// The oldest of them, by creation.
    public let oldestDue: Date?
    /// `auto` fallbacks waiting for their turn (not late: they go only if the first channel fails).
    public let scheduledFallbacks: Int

    public init(due: Int, oldestDue: Date?, scheduledFallbacks: Int) {
        self.due = due
        self.oldestDue = oldestDue
        self.scheduledFallbacks = scheduledFallbacks
    }
}

/// The events outbox (docs/EVENTS.md) for the delivery page.
public struct EventBacklog: Sendable, Equatable {
    public let pending: Int
    public let oldestPending: Date?
    /// Events given up on since the time asked.
    public let failed: Int

    public init(pending: Int, oldestPending: Date?, failed: Int) {
        self.pending = pending
        self.oldestPending = oldestPending
        self.failed = failed
    }
}

/// One event of the events outbox as the console's verification page lists it.
public struct EventRecord: Sendable, Equatable {
    public let id: String
    public let type: String
    public let status: String
    public let attempts: Int
    public let lastError: String?
    public let createdAt: Date

    public init(id: String, type: String, status: String, attempts: Int, lastError: String?, createdAt: Date) {
        self.id = id
        self.type = type
        self.status = status
        self.attempts = attempts
        self.lastError = lastError
        self.createdAt = createdAt
    }
}

/// Aggregates for the console's delivery page, each one grouped query bounded by its groups,
/// never one row per message; none runs on the request path.
public protocol ConsoleStatsStore: Sendable {
    /// Verifications created at or after `since` per `period` seconds, region and requested channel; at most `limit` groups.
    func conversion(since: Date, period: Int, limit: Int) throws -> [ConversionPoint]
    func outboxBacklog(now: Date) throws -> OutboxBacklog
    func eventBacklog(failedSince: Date) throws -> EventBacklog
    /// Events whose body names `id` (as a JSON string): those still queued, and those sent or
    /// given up between `from` and `to` (bounded by the events-ended index, never the whole table).
    func events(mentioning id: String, from: Date, to: Date, limit: Int) throws -> [EventRecord]
}
