import Foundation
@_exported import struct SQLite.DatabaseStatistics
import SQLite
import VerifyCore

/// The embedded store: one SQLite file in WAL mode, one writer thread that batches the writes
/// of concurrent requests into one transaction (group commit), and a pool of readers.
public final class SQLiteStore: VerificationStore, OutboxStore, @unchecked Sendable {
    let database: Database

    /// Opens (creating if needed) the database at `path` and applies pending migrations.
    /// `maxBatchWaitMicros`: under concurrent load the writer waits up to this long for a batch
    /// as large as the previous one (measured: ~18 % less writer time per flow at 300 µs).
    public init(
        path: String, synchronous: String = "NORMAL", readers: Int = 4, maxBatch: Int = 64, maxBatchWaitMicros: Int = 300
    ) throws {
        var configuration = DatabaseConfiguration(path: path)
        configuration.synchronous = synchronous
        configuration.readerCount = readers
        configuration.maxBatchSize = maxBatch
        configuration.maxBatchWaitMicros = maxBatchWaitMicros
        database = try Database(configuration, migrations: SQLiteSchema.migrations)
    }

    /// The schema version after migrations.
    public static var latestSchemaVersion: Int { SQLiteSchema.migrations.last?.version ?? 0 }

    public func close() { database.close() }

    /// Group-commit counters of the writer (batches, jobs, largest batch…).
    public var statistics: DatabaseStatistics { database.statistics }

    /// SQLite reads are local: the read set is not needed.
    public func write<T: Sendable>(reading: ReadSet, _ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws -> T {
        try database.write { db in
            let tx = SQLiteTransaction(db: db)
            try tx.prefetch(reading)
            let result = try body(tx)
            try tx.flush()
            return result
        }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) throws -> T {
        try database.read { db in try body(SQLiteTransaction(db: db)) }
    }

    // MARK: OutboxStore

    public func claimDue(limit: Int, now: Date, leaseUntil: Date, owner: String) throws -> [OutboxMessage] {
        try database.write { db in
            try db.query(
                """
                UPDATE outbox SET lease_owner = ?, lease_until = ?
                WHERE id IN (SELECT id FROM outbox WHERE status = 'queued' AND next_attempt_at <= ?
                             AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_attempt_at LIMIT ?)
                RETURNING \(SQLiteRows.outboxColumns)
                """,
                [.text(owner), SQLiteRows.millis(leaseUntil), SQLiteRows.millis(now), SQLiteRows.millis(now), .integer(Int64(limit))]
            ).map(SQLiteRows.message)
        }
    }

    public func complete(_ outcomes: [OutboxOutcome], owner: String) throws {
        try database.write { db in
            for o in outcomes {
                try db.run(
                    """
                    UPDATE outbox SET status = ?, gateway = ?, provider_message_id = COALESCE(?, provider_message_id),
                        last_error = ?, attempts = ?, next_attempt_at = COALESCE(?, next_attempt_at), updated_at = ?,
                        lease_owner = NULL, lease_until = NULL,
                        payload = CASE WHEN ? = 'queued' THEN payload ELSE NULL END
                    WHERE id = ? AND lease_owner = ? AND status = 'queued'
                    """,
                    [
                        .text(o.status.rawValue), SQLiteRows.text(o.gateway), SQLiteRows.text(o.providerMessageID),
                        SQLiteRows.text(o.lastError), .integer(Int64(o.attempts)), SQLiteRows.millis(o.nextAttemptAt),
                        SQLiteRows.millis(o.at), .text(o.status.rawValue), .text(o.messageID), .text(owner),
                    ])
            }
        }
    }

    public func releaseLeases(owner: String) throws {
        try database.write { db in
            _ = try db.run("UPDATE outbox SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?", [.text(owner)])
        }
    }

    public func renewLeases(owner: String, ids: [String], until: Date) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try database.write { db in
            var renewed = 0
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = ids[start..<min(start + 500, ids.count)]
                renewed += try db.run(
                    "UPDATE outbox SET lease_until = ? WHERE lease_owner = ? AND id IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))",
                    [SQLiteRows.millis(until), .text(owner)] + chunk.map { .text($0) })
            }
            return renewed
        }
    }

    public func recordReceipt(gateway: String, providerMessageID: String, status: DeliveryStatus, error: String?, at: Date) throws -> Bool {
        try database.write { db in
            guard try db.queryOne(
                "SELECT 1 FROM outbox WHERE provider_message_id = ? AND gateway = ?", [.text(providerMessageID), .text(gateway)]) != nil
            else { return false }
            try db.run(
                """
                UPDATE outbox SET status = ?, last_error = COALESCE(?, last_error), updated_at = ?
                WHERE provider_message_id = ? AND gateway = ? AND status NOT IN ('delivered', 'undelivered')
                  AND NOT (? = 'sent' AND status = 'failed')
                """,
                [.text(status.rawValue), SQLiteRows.text(error), SQLiteRows.millis(at), .text(providerMessageID), .text(gateway), .text(status.rawValue)])
            return true
        }
    }

    public func queueDepth() throws -> (count: Int, oldest: Date?) {
        try database.read { db in
            let row = try db.queryOne("SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM outbox WHERE status = 'queued'")
            return (Int(row?.int("n") ?? 0), row?.int("oldest").map(SQLiteRows.date))
        }
    }

    public func purge(endedBefore cutoff: Date) throws -> Int {
        try database.write { db in
            let c = SQLiteRows.millis(cutoff)
            var removed = try db.run("DELETE FROM verifications WHERE expires_at < ?", [c])
            // Twilio-compatible links of purged verifications (not counted: bookkeeping of the rows above).
            _ = try db.run("DELETE FROM twilio_verifications WHERE created_at < ? AND verification_id NOT IN (SELECT id FROM verifications)", [c])
            removed += try db.run("DELETE FROM outbox WHERE expires_at < ? AND status <> 'queued'", [c])
            removed += try db.run("DELETE FROM idempotency_keys WHERE created_at < ?", [c])
            removed += try db.run("DELETE FROM limit_logs WHERE expires_at < ?", [c])
            removed += try db.run("DELETE FROM fraud_counts WHERE bucket < ?", [c])
            return removed
        }
    }
}
