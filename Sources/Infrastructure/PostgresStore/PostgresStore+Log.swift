import Foundation
import Postgres
import VerifyCore

/// The console's verification log, as SQLite's (`SQLiteStore+Log.swift`): newest first by id
/// (the primary key; time bounds and cursors are id ranges), at most ``VerificationLogQuery/scanLimit``
/// rows examined per page, each row's latest message by `outbox_by_verification`.
extension PostgresStore: VerificationLogStore {
    public func verificationLog(_ q: VerificationLogQuery) throws -> VerificationLogPage {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                var clauses: [String] = []
                var args: [PostgresValue] = []
                func arg(_ value: PostgresValue) -> String { args.append(value); return "$\(args.count)" }
                if let since = q.since {
                    let lower = VerificationLogQuery.idBound(since.addingTimeInterval(-0.001))
                    clauses.append("id >= \(arg(.text(lower))) AND created_at >= \(arg(PostgresRows.millis(since)))")
                }
                if let until = q.until {
                    clauses.append("id < \(arg(.text(VerificationLogQuery.idBound(until)))) AND created_at < \(arg(PostgresRows.millis(until)))")
                }
                if let after = q.after { clauses.append("id < \(arg(.text(after.id)))") }
                var bound: VerificationLogCursor?
                if let phone = q.phoneNumber {
                    clauses.append("phone_number = \(arg(.text(phone)))")
                } else {
                    let offset = arg(.int(Int64(VerificationLogQuery.scanLimit - 1)))
                    let sql = "SELECT created_at, id FROM verifications \(Self.whereClause(clauses)) ORDER BY id DESC LIMIT 1 OFFSET \(offset)"
                    let captured = args
                    args.removeLast()
                    if let row = try trip({ try connection.queryFirst(sql, captured) }) {
                        let cursor = VerificationLogCursor(createdAt: PostgresRows.date(row.int("created_at") ?? 0), id: row.text("id") ?? "")
                        bound = cursor
                        clauses.append("id >= \(arg(.text(cursor.id)))")
                    }
                }
                switch q.status {
                case .none: break
                case .pending?: clauses.append("status = 'pending' AND expires_at > \(arg(PostgresRows.millis(q.now)))")
                case .expired?: clauses.append("status = 'pending' AND expires_at <= \(arg(PostgresRows.millis(q.now)))")
                case let status?: clauses.append("status = \(arg(.text(status.rawValue)))")
                }
                if let region = q.region { clauses.append("region = \(arg(.text(region)))") }
                if let channel = q.channel {
                    clauses.append(
                        "EXISTS (SELECT 1 FROM outbox o WHERE o.verification_id = verifications.id AND o.channel = \(arg(.text(channel.rawValue))) AND (o.fallback_of IS NULL OR o.attempts > 0))")
                }
                let limit = arg(.int(Int64(q.limit + 1)))
                let sql = "SELECT \(PostgresRows.verificationColumns) FROM verifications \(Self.whereClause(clauses)) ORDER BY id DESC LIMIT \(limit)"
                let all = args
                let rows = try trip { try connection.query(sql, all) }
                let entries = try rows.prefix(q.limit).map { row in
                    let v = try PostgresRows.verification(row)
                    let message = try trip {
                        try connection.queryFirst(
                            "SELECT \(PostgresRows.outboxColumns) FROM outbox WHERE verification_id = $1 AND \(PostgresRows.isDelivery) ORDER BY created_at DESC, seq DESC LIMIT 1",
                            [.text(v.id)])
                    }.map(PostgresRows.message)
                    return VerificationLogEntry(verification: v, message: message)
                }
                let next = rows.count > q.limit ? entries.last.map { VerificationLogCursor(createdAt: $0.verification.createdAt, id: $0.verification.id) } : bound
                return VerificationLogPage(entries: entries, next: next)
            }
        }
    }

    public func messages(verificationID: String, limit: Int) throws -> [OutboxMessage] {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip {
                    try connection.query(
                        "SELECT \(PostgresRows.outboxColumns) FROM outbox WHERE verification_id = $1 ORDER BY created_at, seq LIMIT $2",
                        [.text(verificationID), .int(Int64(limit))])
                }.map(PostgresRows.message)
            }
        }
    }

    static func whereClause(_ clauses: [String]) -> String { clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ") }
}

/// The delivery page's conversion chart and outboxes.
extension PostgresStore: ConsoleStatsStore {
    public func conversion(since: Date, period: Int, limit: Int) throws -> [ConversionPoint] {
        let p = Int64(period) * 1000
        return try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip {
                    try connection.query(
                        """
                        SELECT (created_at / $1) * $1 AS start, region, channel, COUNT(*) AS started, COUNT(approved_at) AS approved
                        FROM verifications WHERE id >= $4 AND created_at >= $2 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3 LIMIT $3
                        """, [.int(p), PostgresRows.millis(since), .int(Int64(limit)), .text(VerificationLogQuery.idBound(since.addingTimeInterval(-0.001)))])
                }.map { row in
                    ConversionPoint(
                        start: PostgresRows.date(row.int("start") ?? 0), region: row.text("region") ?? "ZZ", channel: row.text("channel") ?? "sms",
                        started: Int(row.int("started") ?? 0), approved: Int(row.int("approved") ?? 0))
                }
            }
        }
    }

    public func outboxBacklog(now: Date) throws -> OutboxBacklog {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                let row = try trip {
                    try connection.queryFirst(
                        """
                        SELECT COUNT(*) FILTER (WHERE NOT s) AS due, MIN(created_at) FILTER (WHERE NOT s) AS oldest, COUNT(*) FILTER (WHERE s) AS scheduled
                        FROM (SELECT created_at, (fallback_of IS NOT NULL AND attempts = 0 AND next_attempt_at > $1) AS s
                              FROM outbox WHERE status = 'queued') q
                        """, [PostgresRows.millis(now)])
                }
                return OutboxBacklog(
                    due: Int(row?.int("due") ?? 0), oldestDue: row?.int("oldest").map(PostgresRows.date), scheduledFallbacks: Int(row?.int("scheduled") ?? 0))
            }
        }
    }

    public func events(mentioning id: String, from: Date, to: Date, limit: Int) throws -> [EventRecord] {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip {
                    try connection.query(
                        """
                        SELECT * FROM (
                            SELECT id, type, status, attempts, last_error, created_at FROM events
                            WHERE status <> 'queued' AND updated_at >= $1 AND updated_at <= $2 AND strpos(body, $3) > 0
                            UNION ALL
                            SELECT id, type, status, attempts, last_error, created_at FROM events WHERE status = 'queued' AND strpos(body, $3) > 0
                        ) e ORDER BY created_at, id LIMIT $4
                        """, [PostgresRows.millis(from), PostgresRows.millis(to), .text("\"" + id + "\""), .int(Int64(limit))])
                }.map { row in
                    EventRecord(
                        id: row.text("id") ?? "", type: row.text("type") ?? "", status: row.text("status") ?? "",
                        attempts: Int(row.int("attempts") ?? 0), lastError: row.text("last_error"),
                        createdAt: PostgresRows.date(row.int("created_at") ?? 0))
                }
            }
        }
    }

    public func eventBacklog(failedSince: Date) throws -> EventBacklog {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                let pending = try trip { try connection.queryFirst("SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM events WHERE status = 'queued'", []) }
                let failed = try trip {
                    try connection.queryFirst(
                        "SELECT COUNT(*) AS n FROM events WHERE status = 'failed' AND updated_at >= $1", [PostgresRows.millis(failedSince)])
                }
                return EventBacklog(
                    pending: Int(pending?.int("n") ?? 0), oldestPending: pending?.int("oldest").map(PostgresRows.date), failed: Int(failed?.int("n") ?? 0))
            }
        }
    }
}
