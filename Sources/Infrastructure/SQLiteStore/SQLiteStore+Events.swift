import Foundation
import SQLite
import VerifyCore

extension SQLiteTransaction {
    static let insertEventSQL = """
        INSERT INTO events (id, type, body, status, attempts, created_at, updated_at, next_attempt_at)
        VALUES (?, ?, ?, 'queued', 0, ?, ?, ?) ON CONFLICT (id) DO NOTHING
        """

    func insertEvent(_ event: WebhookEvent) throws {
        let at = SQLiteRows.millis(event.createdAt)
        try db.run(Self.insertEventSQL, [.text(event.id), .text(event.type.rawValue), .text(event.body), at, at, at])
    }
}

/// The events outbox (docs/EVENTS.md): claims with leases, like the SMS outbox's.
extension SQLiteStore {
    public func claimEvents(limit: Int, now: Date, leaseUntil: Date, owner: String) throws -> [PendingEvent] {
        try database.write { db in
            try db.query(
                """
                UPDATE events SET lease_owner = ?, lease_until = ?
                WHERE id IN (SELECT id FROM events WHERE status = 'queued' AND next_attempt_at <= ?
                             AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_attempt_at LIMIT ?)
                RETURNING id, type, body, attempts, created_at
                """,
                [.text(owner), SQLiteRows.millis(leaseUntil), SQLiteRows.millis(now), SQLiteRows.millis(now), .integer(Int64(limit))]
            ).compactMap(Self.pendingEvent).sorted { ($0.event.createdAt, $0.event.id) < ($1.event.createdAt, $1.event.id) }
        }
    }

    static func pendingEvent(_ row: Row) throws -> PendingEvent? {
        // A type this version does not know (written by a newer replica) is left for that one.
        guard let type = row.text("type").flatMap(EventType.init(rawValue:)) else { return nil }
        return PendingEvent(
            event: WebhookEvent(
                id: try SQLiteRows.string(row, "id"), type: type, createdAt: SQLiteRows.date(try SQLiteRows.int(row, "created_at")),
                body: try SQLiteRows.string(row, "body")),
            attempts: Int(row.int("attempts") ?? 0))
    }

    public func completeEvents(_ outcomes: [EventOutcome], owner: String) throws {
        guard !outcomes.isEmpty else { return }
        try database.write { db in
            for o in outcomes {
                try db.run(
                    """
                    UPDATE events SET status = ?, attempts = ?, last_error = ?, next_attempt_at = COALESCE(?, next_attempt_at),
                        updated_at = ?, lease_owner = NULL, lease_until = NULL
                    WHERE id = ? AND lease_owner = ? AND status = 'queued'
                    """,
                    [
                        .text(o.status.rawValue), .integer(Int64(o.attempts)), SQLiteRows.text(o.lastError),
                        SQLiteRows.millis(o.nextAttemptAt), SQLiteRows.millis(o.at), .text(o.eventID), .text(owner),
                    ])
            }
        }
    }

    public func releaseEventLeases(owner: String) throws {
        try database.write { db in
            _ = try db.run("UPDATE events SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?", [.text(owner)])
        }
    }

    public func pendingEvents() throws -> Int {
        try database.read { db in
            Int(try db.queryOne("SELECT COUNT(*) AS n FROM events WHERE status = 'queued'")?.int("n") ?? 0)
        }
    }
}
