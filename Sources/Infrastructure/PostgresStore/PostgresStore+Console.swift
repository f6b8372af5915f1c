import Foundation
import Postgres
import VerifyCore

/// Operators' read of the factors enrolled with a number (the console's lookup page).
extension PostgresStore: FactorAdminStore {
    public func factors(phoneNumber: String, limit: Int) throws -> [Factor] {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip {
                    try connection.query(
                        "SELECT \(PostgresRows.factorColumns) FROM factors WHERE phone_number = $1 ORDER BY created_at, id LIMIT $2",
                        [.text(phoneNumber), .int(Int64(limit))])
                }.map(PostgresRows.factor)
            }
        }
    }
}

/// Delivery counts per gateway, region and status for the console's delivery page.
extension PostgresStore: DeliveryStatsStore {
    public func deliveryCounts(since: Date, limit: Int) throws -> [DeliveryCount] {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip {
                    try connection.query(
                        """
                        SELECT COALESCE(o.gateway, '') AS gateway, COALESCE(v.region, 'ZZ') AS region, o.channel AS channel, o.status AS status,
                               COUNT(*) AS n, COUNT(o.fallback_of) AS fallbacks
                        FROM outbox o LEFT JOIN verifications v ON v.id = o.verification_id
                        WHERE o.created_at >= $1 AND (o.fallback_of IS NULL OR o.attempts > 0) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4 LIMIT $2
                        """,
                        [PostgresRows.millis(since), .int(Int64(limit))])
                }.compactMap { row in
                    guard let status = row.text("status").flatMap(DeliveryStatus.init(rawValue:)) else { return nil }
                    return DeliveryCount(
                        gateway: row.text("gateway") ?? "", region: row.text("region") ?? "ZZ", status: status, count: Int(row.int("n") ?? 0),
                        channel: Channel(rawValue: row.text("channel") ?? "") ?? .sms, fallbacks: Int(row.int("fallbacks") ?? 0))
                }
            }
        }
    }
}

/// The fraud counters per hour for the console's fraud charts (kept for the retention period).
extension PostgresStore: FraudHistoryStore {
    public func fraudHistory(since: Date, period: Int, keys: Int) throws -> [FraudHistoryPoint] {
        let periodMillis = Int64(period) * 1000
        return try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip {
                    try connection.query(
                        """
                        SELECT key, (bucket / $1) * $1 AS start, SUM(sent)::bigint AS sent, SUM(approved)::bigint AS approved FROM fraud_counts
                        WHERE bucket >= $2 AND key IN (
                            SELECT key FROM fraud_counts WHERE bucket >= $2 GROUP BY key ORDER BY SUM(sent) DESC, key LIMIT $3)
                        GROUP BY key, start ORDER BY key, start
                        """,
                        [.int(periodMillis), PostgresRows.millis(since), .int(Int64(keys))])
                }.map { row in
                    FraudHistoryPoint(
                        key: row.text("key") ?? "", start: PostgresRows.date(row.int("start") ?? 0), sent: Int(row.int("sent") ?? 0),
                        approved: Int(row.int("approved") ?? 0))
                }
            }
        }
    }
}
