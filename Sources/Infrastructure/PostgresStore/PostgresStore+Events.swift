import Foundation
import Postgres
import VerifyCore

extension CachedTransaction {
    /// Buffered like the other writes: sent with the COMMIT, in the change's transaction.
    func insertEvent(_ event: WebhookEvent) throws {
        try write(
            PostgresStore.insertEvent("VALUES ($1, $2, $3, 'queued', 0, $4, $4, $4)"),
            [.text(event.id), .text(event.type.rawValue), .text(event.body), PostgresRows.millis(event.createdAt)])
    }
}

/// The events outbox (docs/EVENTS.md) for the senders of every replica: leases as the SMS
/// outbox's, claims through `FOR UPDATE SKIP LOCKED`.
extension PostgresStore {
    /// An insert of one event from `source` (`VALUES …` or `SELECT …` of the eight columns); an
    /// id already queued is ignored.
    static func insertEvent(_ source: String) -> String {
        "INSERT INTO events (id, type, body, status, attempts, created_at, updated_at, next_attempt_at) \(source) ON CONFLICT (id) DO NOTHING"
    }

    public func claimEvents(limit: Int, now: Date, leaseUntil: Date, owner: String) throws -> [PendingEvent] {
        // Not retried after a lost connection (as `claimDue`): the claim may have committed.
        try retrying(connectionFailures: false) {
            try pool.withConnection { connection in
                try trip {
                    try connection.query(
                        """
                        WITH due AS (
                            SELECT id FROM events
                            WHERE status = 'queued' AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until < $3)
                            ORDER BY next_attempt_at LIMIT $4
                            FOR UPDATE SKIP LOCKED
                        )
                        UPDATE events AS e SET lease_owner = $1, lease_until = $2 FROM due WHERE e.id = due.id
                        RETURNING e.id, e.type, e.body, e.attempts, e.created_at
                        """,
                        [.text(owner), PostgresRows.millis(leaseUntil), PostgresRows.millis(now), .int(Int64(limit))])
                }
                .compactMap(Self.pendingEvent)
                .sorted { ($0.event.createdAt, $0.event.id) < ($1.event.createdAt, $1.event.id) }
            }
        }
    }

    static func pendingEvent(_ row: PostgresRow) throws -> PendingEvent? {
        // A type this version does not know (written by a newer replica) is left for that one.
        guard let type = row.text("type").flatMap(EventType.init(rawValue:)) else { return nil }
        return PendingEvent(
            event: WebhookEvent(
                id: try PostgresRows.string(row, "id"), type: type,
                createdAt: PostgresRows.date(try PostgresRows.int(row, "created_at")), body: try PostgresRows.string(row, "body")),
            attempts: Int(row.int("attempts") ?? 0))
    }

    public func completeEvents(_ outcomes: [EventOutcome], owner: String) throws {
        guard !outcomes.isEmpty else { return }
        let statements: [(sql: String, params: [PostgresValue])] = outcomes.sorted { $0.eventID < $1.eventID }.map { o in
            (
                """
                UPDATE events SET status = $1, attempts = $2, last_error = $3, next_attempt_at = COALESCE($4, next_attempt_at),
                    updated_at = $5, lease_owner = NULL, lease_until = NULL
                WHERE id = $6 AND lease_owner = $7 AND status = 'queued'
                """,
                [
                    .text(o.status.rawValue), .int(Int64(o.attempts)), PostgresRows.text(o.lastError),
                    PostgresRows.millis(o.nextAttemptAt), PostgresRows.millis(o.at), .text(o.eventID), .text(owner),
                ]
            )
        }
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                _ = try trip { try connection.pipelineResults(statements) }
            }
        }
    }

    public func releaseEventLeases(owner: String) throws {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                _ = try trip {
                    try connection.run("UPDATE events SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1", [.text(owner)])
                }
            }
        }
    }

    public func pendingEvents() throws -> Int {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                let row = try trip { try connection.queryFirst("SELECT COUNT(*) AS n FROM events WHERE status = 'queued'") }
                return Int(row?.int("n") ?? 0)
            }
        }
    }
}
