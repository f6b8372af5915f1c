import Foundation
import SQLite
import StoreRecords
import VerifyCore

/// `StoreTransaction` over one SQLite connection inside a write (or read) transaction.
final class SQLiteTransaction: StoreTransaction {
    let db: Connection
    /// Rate-limit logs read in one statement up front (from the write's read set), and the
    /// logs written, flushed in one statement at the end: the hottest rows of a request.
    private var limitCache: [String: [Int64]] = [:]
    private var limitWrites: [String: (events: [Int64], expiresAt: Date)] = [:]
    private var overrideCache: [String: FraudAction?] = [:]
    /// Fraud counter sums loaded up front (from `fraudSince`), kept current with this
    /// transaction's own additions; the additions are written in one statement by `flush`.
    private var fraudSums: [String: (since: Date, sent: Int, approved: Int)] = [:]
    private var fraudWrites: [FraudBucketKey: (sent: Int, approved: Int)] = [:]

    struct FraudBucketKey: Hashable, Comparable {
        let key: String
        let bucket: Date
        static func < (a: Self, b: Self) -> Bool { (a.key, a.bucket) < (b.key, b.bucket) }
    }

    // Built once: the statement cache is keyed by the SQL text.
    static let selectVerification = "SELECT \(SQLiteRows.verificationColumns) FROM verifications WHERE id = ?"
    static let insertVerification =
        "INSERT INTO verifications (\(SQLiteRows.verificationColumns)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
    static let insertMessage =
        "INSERT INTO outbox (\(SQLiteRows.outboxColumns), lease_owner, lease_until) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"

    init(db: Connection) {
        self.db = db
    }

    /// Loads the read set's limit logs, fraud overrides and fraud counter sums in one
    /// statement: one primary-key lookup per key, joined with UNION ALL. (`key IN (?, …)` made
    /// SQLite build a temporary b-tree for each list, ~40 % more time per prefetch.)
    func prefetch(_ reads: ReadSet) throws {
        var parts: [(sql: String, params: [SQLiteValue])] = []
        for key in Array(Set(reads.limitKeys)).sorted() {
            limitCache[key] = []
            parts.append(("SELECT 0 AS kind, key, events, NULL AS action, NULL AS sent, NULL AS approved FROM limit_logs WHERE key = ?", [.text(key)]))
        }
        let fraudKeys = Array(Set(reads.fraudKeys)).sorted()
        for key in fraudKeys {
            overrideCache[key] = .some(nil)
            parts.append(("SELECT 1, key, NULL, action, NULL, NULL FROM fraud_overrides WHERE key = ?", [.text(key)]))
        }
        if let since = reads.fraudSince {
            for key in fraudKeys {
                fraudSums[key] = (since, 0, 0)
                // An aggregate without GROUP BY: one row even when no bucket matches (its key is
                // then NULL and the row is skipped below).
                parts.append(("SELECT 2, key, NULL, NULL, SUM(sent), SUM(approved) FROM fraud_counts WHERE key = ? AND bucket >= ?",
                              [.text(key), SQLiteRows.millis(since)]))
            }
        }
        // A request reads about ten keys; SQLite allows at most 500 terms in one compound SELECT.
        for start in stride(from: 0, to: parts.count, by: 200) {
            let chunk = parts[start..<min(start + 200, parts.count)]
            let sql = chunk.map(\.sql).joined(separator: " UNION ALL ")
            for row in try db.query(sql, chunk.flatMap(\.params)) {
                guard let key = row.text(1) else { continue }
                switch row.int(0) {
                case 0: limitCache[key] = EventCoding.decode(row.blob(2) ?? [])
                case 1: overrideCache[key] = row.text(3).flatMap(FraudAction.init)
                default:
                    if let since = reads.fraudSince { fraudSums[key] = (since, Int(row.int(4) ?? 0), Int(row.int(5) ?? 0)) }
                }
            }
        }
    }

    /// Writes the buffered limit logs (one multi-row upsert per 100 logs) and fraud counters.
    func flush() throws {
        try flushFraudCounts()
        guard !limitWrites.isEmpty else { return }
        let entries = limitWrites.sorted { $0.key < $1.key }
        limitWrites.removeAll()
        for start in stride(from: 0, to: entries.count, by: 100) {
            let chunk = entries[start..<min(start + 100, entries.count)]
            let values = Array(repeating: "(?, ?, ?)", count: chunk.count).joined(separator: ",")
            try db.run(
                "INSERT INTO limit_logs (key, events, expires_at) VALUES \(values) ON CONFLICT (key) DO UPDATE SET events = excluded.events, expires_at = excluded.expires_at",
                chunk.flatMap { [.text($0.key), .blob(EventCoding.encode($0.value.events)), SQLiteRows.millis($0.value.expiresAt)] })
        }
    }

    func verification(id: String) throws -> Verification? {
        try db.queryOne(Self.selectVerification, [.text(id)])
            .map(SQLiteRows.verification)
    }

    func latestMessage(verificationID: String) throws -> OutboxMessage? {
        try db.queryOne(
            "SELECT \(SQLiteRows.outboxColumns) FROM outbox WHERE verification_id = ? AND \(SQLiteRows.isDelivery) ORDER BY created_at DESC, rowid DESC LIMIT 1",
            [.text(verificationID)]
        ).map(SQLiteRows.message)
    }

    func idempotencyRecord(key: String, notBefore: Date) throws -> IdempotencyRecord? {
        guard let row = try db.queryOne(
            "SELECT fingerprint, verification_id, snapshot, created_at FROM idempotency_keys WHERE key = ? AND created_at >= ?",
            [.text(key), SQLiteRows.millis(notBefore)])
        else { return nil }
        let snapshot = try JSONDecoder().decode(Verification.self, from: Data(row.blob("snapshot") ?? []))
        return IdempotencyRecord(
            key: key, fingerprint: try SQLiteRows.string(row, "fingerprint"),
            verificationID: try SQLiteRows.string(row, "verification_id"), snapshot: snapshot,
            createdAt: SQLiteRows.date(try SQLiteRows.int(row, "created_at")))
    }

    func ping() throws {
        _ = try db.queryOne("SELECT 1")
    }

    func insert(_ verification: Verification) throws {
        try db.run(
            Self.insertVerification,
            SQLiteRows.values(verification))
    }

    func update(_ v: Verification) throws {
        try db.run(
            """
            UPDATE verifications SET status = ?, code_hash = ?, code_length = ?, attempts = ?, sends = ?, expires_at = ?,
                last_sent_at = ?, resend_available_at = ?, approved_at = ?, purpose = ?, channel = ? WHERE id = ?
            """,
            [
                .text(v.storedStatus.rawValue), .blob(v.codeHash), .integer(Int64(v.codeLength)), .integer(Int64(v.attempts)),
                .integer(Int64(v.sends)),
                SQLiteRows.millis(v.expiresAt), SQLiteRows.millis(v.lastSentAt), SQLiteRows.millis(v.resendAvailableAt),
                SQLiteRows.millis(v.approvedAt), .text(v.purpose.rawValue), .text(v.channel), .text(v.id),
            ])
    }

    func enqueue(_ message: OutboxMessage, lease: OutboxLease?) throws {
        try db.run(
            Self.insertMessage,
            SQLiteRows.values(message) + [SQLiteRows.text(lease?.owner), SQLiteRows.millis(lease?.until)])
    }

    func supersedeQueuedMessages(verificationID: String, reason: String, now: Date) throws {
        try db.run(
            "UPDATE outbox SET status = 'failed', last_error = ?, payload = NULL, updated_at = ? WHERE verification_id = ? AND status = 'queued'",
            [.text(reason), SQLiteRows.millis(now), .text(verificationID)])
    }

    func saveIdempotencyRecord(_ record: IdempotencyRecord) throws {
        try db.run(
            "INSERT OR REPLACE INTO idempotency_keys (key, fingerprint, verification_id, snapshot, created_at) VALUES (?,?,?,?,?)",
            [
                .text(record.key), .text(record.fingerprint), .text(record.verificationID),
                .blob(Array(try JSONEncoder().encode(record.snapshot))), SQLiteRows.millis(record.createdAt),
            ])
    }

    func limitEvents(key: String) throws -> [Int64] {
        if let cached = limitCache[key] { return cached }
        guard let blob = try db.queryOne("SELECT events FROM limit_logs WHERE key = ?", [.text(key)])?.blob("events") else {
            return []
        }
        return EventCoding.decode(blob)
    }

    func setLimitEvents(key: String, events: [Int64], expiresAt: Date) throws {
        limitCache[key] = events
        limitWrites[key] = (events, expiresAt)
    }

    func fraudCounts(key: String, since: Date) throws -> (sent: Int, approved: Int) {
        if let sums = fraudSums[key], sums.since == since { return (sums.sent, sums.approved) }
        let row = try db.queryOne(
            "SELECT COALESCE(SUM(sent), 0) AS sent, COALESCE(SUM(approved), 0) AS approved FROM fraud_counts WHERE key = ? AND bucket >= ?",
            [.text(key), SQLiteRows.millis(since)])
        var counts = (sent: Int(row?.int("sent") ?? 0), approved: Int(row?.int("approved") ?? 0))
        for (slot, added) in fraudWrites where slot.key == key && slot.bucket >= since {
            counts.sent += added.sent
            counts.approved += added.approved
        }
        return counts
    }

    func addFraudCounts(key: String, bucket: Date, sent: Int, approved: Int) throws {
        let slot = FraudBucketKey(key: key, bucket: bucket)
        let before = fraudWrites[slot] ?? (0, 0)
        fraudWrites[slot] = (before.sent + sent, before.approved + approved)
        if let sums = fraudSums[key], bucket >= sums.since {
            fraudSums[key] = (sums.since, sums.sent + sent, sums.approved + approved)
        }
    }

    /// One multi-row upsert for the counters added in this transaction.
    private func flushFraudCounts() throws {
        guard !fraudWrites.isEmpty else { return }
        let entries = fraudWrites.sorted { $0.key < $1.key }
        fraudWrites.removeAll()
        try db.run(
            """
            INSERT INTO fraud_counts (key, bucket, sent, approved) VALUES \(Array(repeating: "(?, ?, ?, ?)", count: entries.count).joined(separator: ","))
            ON CONFLICT (key, bucket) DO UPDATE SET sent = sent + excluded.sent, approved = approved + excluded.approved
            """,
            entries.flatMap { [.text($0.key.key), SQLiteRows.millis($0.key.bucket), .integer(Int64($0.value.sent)), .integer(Int64($0.value.approved))] })
    }

    func fraudOverride(key: String) throws -> FraudAction? {
        if let cached = overrideCache[key] { return cached }
        return try db.queryOne("SELECT action FROM fraud_overrides WHERE key = ?", [.text(key)])?.text("action").flatMap(FraudAction.init)
    }

    func setFraudOverride(key: String, action: FraudAction?, now: Date) throws {
        overrideCache[key] = .some(action)
        if let action {
            try db.run(
                "INSERT INTO fraud_overrides (key, action, created_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET action = excluded.action, created_at = excluded.created_at",
                [.text(key), .text(action.rawValue), SQLiteRows.millis(now)])
        } else {
            try db.run("DELETE FROM fraud_overrides WHERE key = ?", [.text(key)])
        }
    }

    func fraudStats(since: Date) throws -> [FraudStat] {
        try flushFraudCounts()
        return try db.query(
            """
            SELECT k.key AS key, COALESCE(SUM(c.sent), 0) AS sent, COALESCE(SUM(c.approved), 0) AS approved, o.action AS action
            FROM (SELECT key FROM fraud_counts WHERE bucket >= ? UNION SELECT key FROM fraud_overrides) k
            LEFT JOIN fraud_counts c ON c.key = k.key AND c.bucket >= ?
            LEFT JOIN fraud_overrides o ON o.key = k.key
            GROUP BY k.key ORDER BY k.key
            """,
            [SQLiteRows.millis(since), SQLiteRows.millis(since)]
        ).map { row in
            FraudStat(
                key: row.text("key") ?? "", sent: Int(row.int("sent") ?? 0), approved: Int(row.int("approved") ?? 0),
                action: row.text("action").flatMap(FraudAction.init))
        }
    }
}

extension SQLiteTransaction {
    func factors(subject: String) throws -> [Factor] {
        try db.query(
            "SELECT id, subject, phone_number, country_code, created_at, last_used_at, display_name FROM factors WHERE subject = ? ORDER BY created_at, id",
            [.text(subject)]
        ).map(Self.factor)
    }

    func factor(id: String) throws -> Factor? {
        try db.queryOne(
            "SELECT id, subject, phone_number, country_code, created_at, last_used_at, display_name FROM factors WHERE id = ?", [.text(id)]
        ).map(Self.factor)
    }

    func insertFactor(_ f: Factor) throws {
        do {
            try db.run(
                "INSERT INTO factors (id, subject, phone_number, country_code, created_at, last_used_at, display_name) VALUES (?,?,?,?,?,?,?)",
                [.text(f.id), .text(f.subject), .text(f.phoneNumber), .integer(Int64(f.countryCode)), SQLiteRows.millis(f.createdAt),
                 SQLiteRows.millis(f.lastUsedAt), SQLiteRows.text(f.displayName)])
        } catch let error as SQLiteError where error.isConstraint {
            throw VerifyError(.factorExists, "this phone number is already enrolled")
        }
    }

    func deleteFactor(id: String) throws {
        try db.run("DELETE FROM factors WHERE id = ?", [.text(id)])
    }

    func touchFactor(id: String, at: Date) throws {
        try db.run("UPDATE factors SET last_used_at = ? WHERE id = ?", [SQLiteRows.millis(at), .text(id)])
    }

    static func factor(_ row: Row) throws -> Factor { try StoredRecords.factor(SQLiteRecord(row)) }
}
