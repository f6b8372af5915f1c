import Foundation
import SQLite
import VerifyCore

/// Operators' read of the factors enrolled with a number (the console's lookup page).
extension SQLiteStore: FactorAdminStore {
    public func factors(phoneNumber: String, limit: Int) throws -> [Factor] {
        try database.read { db in
            try db.query(
                "SELECT id, subject, phone_number, country_code, created_at, last_used_at, display_name FROM factors WHERE phone_number = ? ORDER BY created_at, id LIMIT ?",
                [.text(phoneNumber), .integer(Int64(limit))]
            ).map(SQLiteTransaction.factor)
        }
    }
}

/// Delivery counts per gateway, region and status for the console's delivery page.
extension SQLiteStore: DeliveryStatsStore {
    public func deliveryCounts(since: Date, limit: Int) throws -> [DeliveryCount] {
        try database.read { db in
            try db.query(
                """
                SELECT COALESCE(o.gateway, '') AS gateway, COALESCE(v.region, 'ZZ') AS region, o.channel AS channel, o.status AS status,
                       COUNT(*) AS n, SUM(o.fallback_of IS NOT NULL) AS fallbacks
                FROM outbox o LEFT JOIN verifications v ON v.id = o.verification_id
                WHERE o.created_at >= ? AND (o.fallback_of IS NULL OR o.attempts > 0) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4 LIMIT ?
                """,
                [SQLiteRows.millis(since), .integer(Int64(limit))]
            ).compactMap { row in
                guard let status = row.text("status").flatMap(DeliveryStatus.init(rawValue:)) else { return nil }
                return DeliveryCount(
                    gateway: row.text("gateway") ?? "", region: row.text("region") ?? "ZZ", status: status, count: Int(row.int("n") ?? 0),
                    channel: Channel(rawValue: row.text("channel") ?? "") ?? .sms, fallbacks: Int(row.int("fallbacks") ?? 0))
            }
        }
    }
}

/// The fraud counters per hour for the console's fraud charts (kept for the retention period).
extension SQLiteStore: FraudHistoryStore {
    public func fraudHistory(since: Date, period: Int, keys: Int) throws -> [FraudHistoryPoint] {
        let periodMillis = Int64(period) * 1000
        return try database.read { db in
            try db.query(
                """
                SELECT key, (bucket / ?) * ? AS start, SUM(sent) AS sent, SUM(approved) AS approved FROM fraud_counts
                WHERE bucket >= ? AND key IN (
                    SELECT key FROM fraud_counts WHERE bucket >= ? GROUP BY key ORDER BY SUM(sent) DESC, key LIMIT ?)
                GROUP BY key, start ORDER BY key, start
                """,
                [.integer(periodMillis), .integer(periodMillis), SQLiteRows.millis(since), SQLiteRows.millis(since), .integer(Int64(keys))]
            ).map { row in
                FraudHistoryPoint(
                    key: row.text("key") ?? "", start: SQLiteRows.date(row.int("start") ?? 0), sent: Int(row.int("sent") ?? 0),
                    approved: Int(row.int("approved") ?? 0))
            }
        }
    }
}
