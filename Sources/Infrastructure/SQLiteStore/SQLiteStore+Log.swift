import Foundation
import SQLite
import VerifyCore

/// The console's verification log: newest first by id (the primary key: an id begins with its
/// creation millisecond, ``VerificationLogQuery/idBound(_:)``, so time bounds and cursors are id
/// ranges and no index on `created_at` costs each start a write), at most
/// ``VerificationLogQuery/scanLimit`` rows examined per page, and each row's latest message by
/// `outbox_by_verification`.
extension SQLiteStore: VerificationLogStore {
    public func verificationLog(_ q: VerificationLogQuery) throws -> VerificationLogPage {
        try database.read { db in
            var clauses: [String] = []
            var args: [SQLiteValue] = []
            if let since = q.since {
                clauses.append("id >= ? AND created_at >= ?")
                args += [.text(VerificationLogQuery.idBound(since.addingTimeInterval(-0.001))), SQLiteRows.millis(since)]
            }
            if let until = q.until {
                clauses.append("id < ? AND created_at < ?")
                args += [.text(VerificationLogQuery.idBound(until)), SQLiteRows.millis(until)]
            }
            if let after = q.after { clauses.append("id < ?"); args.append(.text(after.id)) }
            var bound: VerificationLogCursor?
            if let phone = q.phoneNumber {
                clauses.append("phone_number = ?")
                args.append(.text(phone))
            } else if let row = try db.queryOne(
                "SELECT created_at, id FROM verifications \(Self.whereClause(clauses)) ORDER BY id DESC LIMIT 1 OFFSET ?",
                args + [.integer(Int64(VerificationLogQuery.scanLimit - 1))])
            {
                // The scan stops at the scanLimit-th row in order: nothing older is read this page.
                let cursor = VerificationLogCursor(createdAt: SQLiteRows.date(row.int("created_at") ?? 0), id: row.text("id") ?? "")
                bound = cursor
                clauses.append("id >= ?")
                args.append(.text(cursor.id))
            }
            switch q.status {
            case .none: break
            case .pending?: clauses.append("status = 'pending' AND expires_at > ?"); args.append(SQLiteRows.millis(q.now))
            case .expired?: clauses.append("status = 'pending' AND expires_at <= ?"); args.append(SQLiteRows.millis(q.now))
            case let status?: clauses.append("status = ?"); args.append(.text(status.rawValue))
            }
            if let region = q.region { clauses.append("region = ?"); args.append(.text(region)) }
            if let channel = q.channel {
                clauses.append(
                    "EXISTS (SELECT 1 FROM outbox o WHERE o.verification_id = verifications.id AND o.channel = ? AND (o.fallback_of IS NULL OR o.attempts > 0))")
                args.append(.text(channel.rawValue))
            }
            let rows = try db.query(
                "SELECT \(SQLiteRows.verificationColumns) FROM verifications \(Self.whereClause(clauses)) ORDER BY id DESC LIMIT ?",
                args + [.integer(Int64(q.limit + 1))])
            let entries = try rows.prefix(q.limit).map { row in
                let v = try SQLiteRows.verification(row)
                let message = try db.queryOne(
                    "SELECT \(SQLiteRows.outboxColumns) FROM outbox WHERE verification_id = ? AND \(SQLiteRows.isDelivery) ORDER BY created_at DESC, rowid DESC LIMIT 1",
                    [.text(v.id)]
                ).map(SQLiteRows.message)
                return VerificationLogEntry(verification: v, message: message)
            }
            let next = rows.count > q.limit ? entries.last.map { VerificationLogCursor(createdAt: $0.verification.createdAt, id: $0.verification.id) } : bound
            return VerificationLogPage(entries: entries, next: next)
        }
    }

    public func messages(verificationID: String, limit: Int) throws -> [OutboxMessage] {
        try database.read { db in
            try db.query(
                "SELECT \(SQLiteRows.outboxColumns) FROM outbox WHERE verification_id = ? ORDER BY created_at, rowid LIMIT ?",
                [.text(verificationID), .integer(Int64(limit))]
            ).map(SQLiteRows.message)
        }
    }

    static func whereClause(_ clauses: [String]) -> String { clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ") }
}

/// The delivery page's conversion chart and outboxes.
extension SQLiteStore: ConsoleStatsStore {
    public func conversion(since: Date, period: Int, limit: Int) throws -> [ConversionPoint] {
        let p = Int64(period) * 1000
        return try database.read { db in
            try db.query(
                """
                SELECT (created_at / ?) * ? AS start, region, channel, COUNT(*) AS started, SUM(approved_at IS NOT NULL) AS approved
                FROM verifications WHERE id >= ? AND created_at >= ? GROUP BY 1, 2, 3 ORDER BY 1, 2, 3 LIMIT ?
                """,
                [.integer(p), .integer(p), .text(VerificationLogQuery.idBound(since.addingTimeInterval(-0.001))), SQLiteRows.millis(since),
                 .integer(Int64(limit))]
            ).map { row in
                ConversionPoint(
                    start: SQLiteRows.date(row.int("start") ?? 0), region: row.text("region") ?? "ZZ", channel: row.text("channel") ?? "sms",
                    started: Int(row.int("started") ?? 0), approved: Int(row.int("approved") ?? 0))
            }
        }
    }

    public func outboxBacklog(now: Date) throws -> OutboxBacklog {
        try database.read { db in
            let row = try db.queryOne(
                """
                SELECT SUM(scheduled = 0) AS due, MIN(CASE WHEN scheduled = 0 THEN created_at END) AS oldest, SUM(scheduled) AS scheduled
                FROM (SELECT created_at, (fallback_of IS NOT NULL AND attempts = 0 AND next_attempt_at > ?) AS scheduled
                      FROM outbox WHERE status = 'queued')
                """, [SQLiteRows.millis(now)])
            return OutboxBacklog(
                due: Int(row?.int("due") ?? 0), oldestDue: row?.int("oldest").map(SQLiteRows.date), scheduledFallbacks: Int(row?.int("scheduled") ?? 0))
        }
    }

    public func events(mentioning id: String, from: Date, to: Date, limit: Int) throws -> [EventRecord] {
        try database.read { db in
            try db.query(
                """
                SELECT * FROM (
                    SELECT id, type, status, attempts, last_error, created_at FROM events
                    WHERE status <> 'queued' AND updated_at >= ?1 AND updated_at <= ?2 AND instr(body, ?3) > 0
                    UNION ALL
                    SELECT id, type, status, attempts, last_error, created_at FROM events WHERE status = 'queued' AND instr(body, ?3) > 0
                ) ORDER BY created_at, id LIMIT ?4
                """, [SQLiteRows.millis(from), SQLiteRows.millis(to), .text("\"" + id + "\""), .integer(Int64(limit))]
            ).map { row in
                EventRecord(
                    id: row.text("id") ?? "", type: row.text("type") ?? "", status: row.text("status") ?? "", attempts: Int(row.int("attempts") ?? 0),
                    lastError: row.text("last_error"), createdAt: SQLiteRows.date(row.int("created_at") ?? 0))
            }
        }
    }

    public func eventBacklog(failedSince: Date) throws -> EventBacklog {
        try database.read { db in
            let pending = try db.queryOne("SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM events WHERE status = 'queued'")
            let failed = try db.queryOne(
                "SELECT COUNT(*) AS n FROM events WHERE status = 'failed' AND updated_at >= ?", [SQLiteRows.millis(failedSince)])
            return EventBacklog(
                pending: Int(pending?.int("n") ?? 0), oldestPending: pending?.int("oldest").map(SQLiteRows.date), failed: Int(failed?.int("n") ?? 0))
        }
    }
}
