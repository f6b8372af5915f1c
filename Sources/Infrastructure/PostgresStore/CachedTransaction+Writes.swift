import Foundation
import Postgres
import VerifyCore

/// Writes: kept in the transaction's changes and sent as few statements as possible at commit.
extension CachedTransaction {
    // MARK: StoreTransaction

    func insert(_ verification: Verification) throws {
        let exists: Bool
        if let change = changes.verifications[verification.id] {
            exists = change.inserted || (fetched.verifications[verification.id].map { $0 != nil } ?? false)
        } else {
            exists = fetched.verifications[verification.id].map { $0 != nil } ?? false
        }
        if exists { throw PostgresStoreError.duplicateKey(table: "verifications", key: verification.id) }
        try write(PostgresRows.insertVerification, PostgresRows.values(verification))
        changes.verifications[verification.id] = (PostgresRows.stored(verification), true)
    }

    func update(_ verification: Verification) throws {
        try write(PostgresRows.updateVerification, PostgresRows.updateValues(verification))
        let inserted = changes.verifications[verification.id]?.inserted ?? false
        changes.verifications[verification.id] = (PostgresRows.stored(verification), inserted)
    }

    func enqueue(_ message: OutboxMessage, lease: OutboxLease?) throws {
        try write(
            PostgresRows.insertMessage,
            PostgresRows.values(message) + [PostgresRows.text(lease?.owner), PostgresRows.millis(lease?.until)])
        changes.outbox[message.verificationID, default: []].append(.enqueue(PostgresRows.stored(message)))
    }

    func supersedeQueuedMessages(verificationID: String, reason: String, now: Date) throws {
        try write(
            "UPDATE outbox SET status = 'failed', last_error = $1, payload = NULL, updated_at = $2 WHERE verification_id = $3 AND status = 'queued'",
            [.text(reason), PostgresRows.millis(now), .text(verificationID)])
        changes.outbox[verificationID, default: []].append(.supersede(reason: reason, at: PostgresRows.stored(now)))
    }

    func saveIdempotencyRecord(_ record: IdempotencyRecord) throws {
        let params: [PostgresValue] = [
            .text(record.key), .text(record.fingerprint), .text(record.verificationID),
            .bytes(Array(try JSONEncoder().encode(record.snapshot))), PostgresRows.millis(record.createdAt),
        ]
        let knownAbsent = changes.idempotency[record.key] == nil && fetched.idempotency[record.key].map { $0 == nil } ?? false
        if knownAbsent {
            // A plain insert: if a concurrent request with the same key committed first, this fails
            // with a unique violation and the store reruns the body, which then replays that record.
            try write(
                "INSERT INTO idempotency_keys (key, fingerprint, verification_id, snapshot, created_at) VALUES ($1,$2,$3,$4,$5)",
                params)
        } else {
            try write(
                """
                INSERT INTO idempotency_keys (key, fingerprint, verification_id, snapshot, created_at) VALUES ($1,$2,$3,$4,$5)
                ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, verification_id = excluded.verification_id,
                    snapshot = excluded.snapshot, created_at = excluded.created_at
                """,
                params)
        }
        changes.idempotency[record.key] = IdempotencyRecord(
            key: record.key, fingerprint: record.fingerprint, verificationID: record.verificationID, snapshot: record.snapshot,
            createdAt: PostgresRows.stored(record.createdAt))
    }

    func setLimitEvents(key: String, events: [Int64], expiresAt: Date) throws {
        try requireWriteMode()
        changes.limitLogs[key] = events
        changes.limitExpiries[key] = expiresAt
    }

    func addFraudCounts(key: String, bucket: Date, sent: Int, approved: Int) throws {
        try requireWriteMode()
        let at = Self.ms(bucket)
        let current = changes.fraudDeltas[key]?[at] ?? (0, 0)
        changes.fraudDeltas[key, default: [:]][at] = (current.sent + sent, current.approved + approved)
    }

    /// The run's limit logs and fraud counters as one multi-row upsert each (sorted, so that
    /// concurrent transactions lock rows in the same order), sent after the other writes: a
    /// request's dozen counter updates cost the server two statements, not a dozen.
    func bufferedWrites() -> [(sql: String, params: [PostgresValue])] {
        var statements: [(sql: String, params: [PostgresValue])] = []
        func rows(_ count: Int, width: Int) -> String {
            (0..<count).map { row in
                "(" + (1...width).map { "$\(row * width + $0)" }.joined(separator: ",") + ")"
            }.joined(separator: ",")
        }
        let logs = changes.limitExpiries.keys.sorted()
        if !logs.isEmpty {
            statements.append((
                "INSERT INTO limit_logs (key, events, expires_at) VALUES \(rows(logs.count, width: 3)) "
                    + "ON CONFLICT (key) DO UPDATE SET events = excluded.events, expires_at = excluded.expires_at",
                logs.flatMap { key -> [PostgresValue] in
                    [.text(key), .bytes(EventCoding.encode(changes.limitLogs[key] ?? [])), PostgresRows.millis(changes.limitExpiries[key]!)]
                }))
        }
        let counts = changes.fraudDeltas.flatMap { key, buckets in buckets.map { (key: key, bucket: $0.key, delta: $0.value) } }
            .sorted { ($0.key, $0.bucket) < ($1.key, $1.bucket) }
        if !counts.isEmpty {
            statements.append((
                "INSERT INTO fraud_counts (key, bucket, sent, approved) VALUES \(rows(counts.count, width: 4)) "
                    + "ON CONFLICT (key, bucket) DO UPDATE SET sent = fraud_counts.sent + excluded.sent, "
                    + "approved = fraud_counts.approved + excluded.approved",
                counts.flatMap { c -> [PostgresValue] in
                    [.text(c.key), .int(c.bucket), PostgresRows.int(c.delta.sent), PostgresRows.int(c.delta.approved)]
                }))
        }
        return statements
    }

    func setFraudOverride(key: String, action: FraudAction?, now: Date) throws {
        if let action {
            try write(
                """
                INSERT INTO fraud_overrides (key, action, created_at) VALUES ($1, $2, $3)
                ON CONFLICT (key) DO UPDATE SET action = excluded.action, created_at = excluded.created_at
                """,
                [.text(key), .text(action.rawValue), PostgresRows.millis(now)])
        } else {
            try write("DELETE FROM fraud_overrides WHERE key = $1", [.text(key)])
        }
        changes.fraudOverrides.updateValue(action, forKey: key)
    }

    func insertFactor(_ factor: Factor) throws {
        if try factors(subject: factor.subject).contains(where: { $0.phoneNumber == factor.phoneNumber }) {
            throw VerifyError(.factorExists, "this phone number is already enrolled")
        }
        try write(
            "INSERT INTO factors (\(PostgresRows.factorColumns)) VALUES ($1,$2,$3,$4,$5,$6,$7)",
            [
                .text(factor.id), .text(factor.subject), .text(factor.phoneNumber), PostgresRows.int(factor.countryCode),
                PostgresRows.millis(factor.createdAt), PostgresRows.millis(factor.lastUsedAt), PostgresRows.text(factor.displayName),
            ])
        changes.factors.append(.insert(PostgresRows.stored(factor)))
    }

    func deleteFactor(id: String) throws {
        try write("DELETE FROM factors WHERE id = $1", [.text(id)])
        changes.factors.append(.delete(id: id))
    }

    func touchFactor(id: String, at: Date) throws {
        try write("UPDATE factors SET last_used_at = $1 WHERE id = $2", [PostgresRows.millis(at), .text(id)])
        changes.factors.append(.touch(id: id, at: PostgresRows.stored(at)))
    }
}
