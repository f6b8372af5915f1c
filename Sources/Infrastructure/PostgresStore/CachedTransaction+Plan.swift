import Foundation
import Postgres
import VerifyCore

/// The statements that fetch what a transaction wants, one function per kind of row.
extension CachedTransaction {
    /// The statements that fetch (and in a write, lock) `wants`, in a fixed order so that
    /// concurrent transactions take row locks in the same order: verifications, rate-limit logs,
    /// idempotency records, factor subjects, each sorted by key.
    func plan(_ wants: Wants) -> [Fetch] {
        var fetches: [Fetch] = []
        var wants = wants
        if mode == .read {
            // A reader of a verification nearly always wants its delivery too (GET): fetch both at once.
            for id in wants.verifications where fetched.latestMessages[id] == nil { wants.latestMessages.insert(id) }
        }
        if !wants.verifications.isEmpty { planVerifications(wants.verifications, into: &fetches) }
        if !wants.limitKeys.isEmpty { planLimitLogs(wants.limitKeys, into: &fetches) }
        if !wants.idempotencyKeys.isEmpty { planIdempotencyRecords(wants.idempotencyKeys, into: &fetches) }
        if !wants.factorSubjects.isEmpty { planFactorsBySubject(wants.factorSubjects, into: &fetches) }
        if !wants.factorIDs.isEmpty { planFactorsByID(wants.factorIDs, into: &fetches) }
        if !wants.fraudKeys.isEmpty { planFraud(wants.fraudKeys, into: &fetches) }
        if !wants.latestMessages.isEmpty { planLatestMessages(wants.latestMessages, into: &fetches) }
        planFraudStats(wants, into: &fetches)
        if wants.ping { planPing(into: &fetches) }
        return fetches
    }

    /// Verification rows by id (locked in a write).
    func planVerifications(_ verifications: Set<String>, into fetches: inout [Fetch]) {
        let ids = verifications.sorted()
        fetches.append(Fetch(
            sql: "SELECT \(PostgresRows.verificationColumns) FROM verifications WHERE id = ANY($1::text[]) ORDER BY id"
                + (locking ? " FOR UPDATE" : ""),
            params: [PostgresRows.textArray(ids)],
            absorb: { [self] rows in
                var found: [String: Verification] = [:]
                for row in rows {
                    let v = try PostgresRows.verification(row)
                    found[v.id] = v
                }
                for id in ids { fetched.verifications.updateValue(found[id], forKey: id) }
            }))
    }

    /// Rate-limit logs by key; in a write, a placeholder row first so the lock always has a row to hold.
    func planLimitLogs(_ limitKeys: Set<String>, into fetches: inout [Fetch]) {
        let keys = limitKeys.sorted()
        let array = PostgresRows.textArray(keys)
        if locking {
            // A row for every key first, so that the lock below always has a row to hold: two
            // transactions can then never both read the same (missing) log and both append to it.
            // Placeholders expire at 0, so purge removes those never written.
            fetches.append(Fetch(
                sql: """
                    INSERT INTO limit_logs (key, events, expires_at)
                    SELECT k, ''::bytea, 0 FROM unnest($1::text[]) AS k ORDER BY k ON CONFLICT (key) DO NOTHING
                    """,
                params: [array], absorb: nil))
        }
        let locked = locking
        fetches.append(Fetch(
            sql: "SELECT key, events FROM limit_logs WHERE key = ANY($1::text[]) ORDER BY key" + (locking ? " FOR UPDATE" : ""),
            params: [array],
            absorb: { [self] rows in
                var found: [String: [Int64]] = [:]
                for row in rows {
                    found[try PostgresRows.string(row, "key")] = EventCoding.decode(row.bytes("events") ?? [])
                }
                for key in keys {
                    if let events = found[key] {
                        fetched.limitLogs[key] = events
                    } else if locked {
                        // Purged between our insert and our lock: start again.
                        throw RetryTransaction()
                    } else {
                        fetched.limitLogs[key] = []
                    }
                }
            }))
    }

    /// Idempotency records by scoped key (locked in a write).
    func planIdempotencyRecords(_ idempotencyKeys: Set<String>, into fetches: inout [Fetch]) {
        let keys = idempotencyKeys.sorted()
        fetches.append(Fetch(
            sql: """
                SELECT key, fingerprint, verification_id, snapshot, created_at FROM idempotency_keys
                WHERE key = ANY($1::text[]) ORDER BY key
                """ + (locking ? " FOR UPDATE" : ""),
            params: [PostgresRows.textArray(keys)],
            absorb: { [self] rows in
                var found: [String: IdempotencyRecord] = [:]
                for row in rows {
                    let record = try PostgresRows.idempotencyRecord(row)
                    found[record.key] = record
                }
                for key in keys { fetched.idempotency.updateValue(found[key], forKey: key) }
            }))
    }

    /// A user's factors; in a write, an advisory lock per subject (there is no row to lock).
    func planFactorsBySubject(_ factorSubjects: Set<String>, into fetches: inout [Fetch]) {
        let subjects = factorSubjects.sorted()
        let array = PostgresRows.textArray(subjects)
        if locking {
            // No row to lock for "this user's factors": a transaction-scoped advisory lock per
            // subject serialises enrolments, so the duplicate and max-factor checks are exact.
            fetches.append(Fetch(
                sql: """
                    SELECT pg_advisory_xact_lock(hashtextextended('phone-verify factors|' || s, 0))
                    FROM (SELECT s FROM unnest($1::text[]) AS s ORDER BY s) AS subjects
                    """,
                params: [array], absorb: nil))
        }
        fetches.append(Fetch(
            sql: "SELECT \(PostgresRows.factorColumns) FROM factors WHERE subject = ANY($1::text[]) ORDER BY subject, created_at, id",
            params: [array],
            absorb: { [self] rows in
                var found: [String: [Factor]] = [:]
                for row in rows {
                    let factor = try PostgresRows.factor(row)
                    found[factor.subject, default: []].append(factor)
                }
                for subject in subjects { fetched.factorsBySubject[subject] = found[subject] ?? [] }
            }))
    }

    /// Factors by id (locked in a write).
    func planFactorsByID(_ factorIDs: Set<String>, into fetches: inout [Fetch]) {
        let ids = factorIDs.sorted()
        fetches.append(Fetch(
            // Locked in a write, as SQLite's single writer serialises: of concurrent deletions
            // of one factor, one finds it and the others find it gone.
            sql: "SELECT \(PostgresRows.factorColumns) FROM factors WHERE id = ANY($1::text[]) ORDER BY id" + (locking ? " FOR UPDATE" : ""),
            params: [PostgresRows.textArray(ids)],
            absorb: { [self] rows in
                var found: [String: Factor] = [:]
                for row in rows {
                    let factor = try PostgresRows.factor(row)
                    found[factor.id] = factor
                }
                for id in ids { fetched.factorsByID.updateValue(found[id], forKey: id) }
            }))
    }

    /// The fraud guard's counters and overrides of some keys, in one statement.
    func planFraud(_ fraudKeys: [String: Int64], into fetches: inout [Fetch]) {
        let keys = fraudKeys.keys.sorted()
        let from = min(fraudKeys.values.min() ?? fraudFrom, fraudFrom)
        let array = PostgresRows.textArray(keys)
        // Counters (kind 0) and overrides (kind 1) in one statement.
        fetches.append(Fetch(
            sql: """
                SELECT 0 AS kind, key, bucket, sent, approved, NULL AS action FROM fraud_counts
                WHERE key = ANY($1::text[]) AND bucket >= $2
                UNION ALL
                SELECT 1, key, NULL, NULL, NULL, action FROM fraud_overrides WHERE key = ANY($1::text[])
                """,
            params: [array, .int(from)],
            absorb: { [self] rows in
                var found: [String: [Int64: (sent: Int, approved: Int)]] = [:]
                var actions: [String: FraudAction] = [:]
                for row in rows {
                    let key = try PostgresRows.string(row, "key")
                    if try PostgresRows.int(row, "kind") == 1 {
                        actions[key] = row.text("action").flatMap(FraudAction.init)
                    } else {
                        found[key, default: [:]][try PostgresRows.int(row, "bucket")] =
                            (Int(try PostgresRows.int(row, "sent")), Int(try PostgresRows.int(row, "approved")))
                    }
                }
                for key in keys {
                    fetched.fraudCounts[key] = FraudBuckets(from: from, buckets: found[key] ?? [:])
                    fetched.fraudOverrides.updateValue(actions[key], forKey: key)
                }
            }))
    }

    /// The newest outbox message of some verifications (their delivery status).
    func planLatestMessages(_ latestMessages: Set<String>, into fetches: inout [Fetch]) {
        let ids = latestMessages.sorted()
        fetches.append(Fetch(
            sql: """
                SELECT DISTINCT ON (verification_id) \(PostgresRows.outboxColumns) FROM outbox
                WHERE verification_id = ANY($1::text[]) AND \(PostgresRows.isDelivery)
                ORDER BY verification_id, created_at DESC, seq DESC
                """,
            params: [PostgresRows.textArray(ids)],
            absorb: { [self] rows in
                var found: [String: OutboxMessage] = [:]
                for row in rows {
                    let message = try PostgresRows.message(row)
                    found[message.verificationID] = message
                }
                for id in ids { fetched.latestMessages.updateValue(found[id], forKey: id) }
            }))
    }

    /// Every fraud key's totals since an instant (operators' listing).
    func planFraudStats(_ wants: Wants, into fetches: inout [Fetch]) {
        for since in wants.fraudStats.sorted() {
            fetches.append(Fetch(
                sql: """
                    SELECT k.key AS key, COALESCE(SUM(c.sent), 0)::bigint AS sent, COALESCE(SUM(c.approved), 0)::bigint AS approved,
                        o.action AS action, COUNT(c.key) > 0 AS has_counts
                    FROM (SELECT key FROM fraud_counts WHERE bucket >= $1 UNION SELECT key FROM fraud_overrides) k
                    LEFT JOIN fraud_counts c ON c.key = k.key AND c.bucket >= $1
                    LEFT JOIN fraud_overrides o ON o.key = k.key
                    GROUP BY k.key, o.action
                    """,
                params: [.int(since)],
                absorb: { [self] rows in
                    var stats: [String: FraudStatRow] = [:]
                    for row in rows {
                        stats[try PostgresRows.string(row, "key")] = FraudStatRow(
                            sent: Int(row.int("sent") ?? 0), approved: Int(row.int("approved") ?? 0),
                            action: row.text("action").flatMap(FraudAction.init), hasCounts: row.bool("has_counts") ?? false)
                    }
                    fetched.fraudStats[since] = stats
                }))
        }
    }

    /// A round trip that proves the connection works.
    func planPing(into fetches: inout [Fetch]) {
        fetches.append(Fetch(sql: "SELECT 1", params: [], absorb: { [self] _ in fetched.pinged = true }))
    }
}
