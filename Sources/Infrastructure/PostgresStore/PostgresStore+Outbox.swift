import Foundation
import Postgres
import VerifyCore

/// The outbox for delivery workers on every replica: the same leases and outcomes as SQLite,
/// with claims through `FOR UPDATE SKIP LOCKED` so concurrent workers never wait for, or take,
/// each other's rows. Each call is one round trip (purge: two).
extension PostgresStore {
    public func claimDue(limit: Int, now: Date, leaseUntil: Date, owner: String) throws -> [OutboxMessage] {
        // Not retried after a lost connection: the claim may have committed, and retrying would
        // leave those rows leased to this owner (and renewed) without anyone sending them.
        try retrying(connectionFailures: false) {
            try pool.withConnection { connection in
                try trip {
                    try connection.query(
                        """
                        WITH due AS (
                            SELECT id FROM outbox
                            WHERE status = 'queued' AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until < $3)
                            ORDER BY next_attempt_at LIMIT $4
                            FOR UPDATE SKIP LOCKED
                        )
                        UPDATE outbox AS o SET lease_owner = $1, lease_until = $2 FROM due WHERE o.id = due.id
                        RETURNING \(Self.prefixed(PostgresRows.outboxColumns, "o"))
                        """,
                        [.text(owner), PostgresRows.millis(leaseUntil), PostgresRows.millis(now), .int(Int64(limit))])
                }
                .map(PostgresRows.message)
                .sorted { ($0.nextAttemptAt, $0.createdAt, $0.id) < ($1.nextAttemptAt, $1.createdAt, $1.id) }
            }
        }
    }

    public func complete(_ outcomes: [OutboxOutcome], owner: String, events: [String: WebhookEvent]) throws {
        guard !outcomes.isEmpty else { return }
        // One implicit transaction (no sync point between the statements), rows in id order.
        let ordered = outcomes.enumerated().sorted { ($0.element.messageID, $0.offset) < ($1.element.messageID, $1.offset) }
        let statements: [(sql: String, params: [PostgresValue])] = ordered.flatMap { _, o -> [(sql: String, params: [PostgresValue])] in
            let event = events[o.messageID]
            // With an event: written in the same statement, only when the outcome is recorded.
            let update = """
                UPDATE outbox SET status = $1, gateway = $2, provider_message_id = COALESCE($3, provider_message_id),
                    last_error = $4, attempts = $5, next_attempt_at = COALESCE($6, next_attempt_at), updated_at = $7,
                    lease_owner = NULL, lease_until = NULL,
                    payload = CASE WHEN $1 = 'queued' THEN payload ELSE NULL END
                WHERE id = $8 AND lease_owner = $9 AND (status = 'queued' OR ($1 = 'sent' AND status = 'failed'))
                """
            let recorded = (
                event == nil ? update : "WITH recorded AS (\(update) RETURNING 1) " + Self.insertEvent(
                    "SELECT $10, $11, $12, 'queued', 0, $13, $13, $13 WHERE EXISTS (SELECT 1 FROM recorded)"),
                [
                    .text(o.status.rawValue), PostgresRows.text(o.gateway), PostgresRows.text(o.providerMessageID),
                    PostgresRows.text(o.lastError), .int(Int64(o.attempts)), PostgresRows.millis(o.nextAttemptAt),
                    PostgresRows.millis(o.at), .text(o.messageID), .text(owner),
                ] + (event.map { [.text($0.id), .text($0.type.rawValue), .text($0.body), PostgresRows.millis($0.createdAt)] } ?? [])
            )
            // Only a final state (or a receipt applied below) can move a fallback.
            let follow = o.status != .queued && (o.status != .sent || o.providerMessageID != nil)
                ? Self.followFallbacks(messageID: o.messageID, now: o.at) : []
            guard o.providerMessageID != nil, o.gateway != nil else { return [recorded] + follow }
            // Sees the update above (same transaction). A receipt held concurrently, after this
            // statement, is applied by the next purge.
            return [recorded, (Self.applyEarlyReceipts(where: "o.id = $1"), [.text(o.messageID)])] + follow
        }
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                _ = try trip { try connection.pipelineResults(statements) }
            }
        }
    }

    public func releaseLeases(owner: String) throws {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                _ = try trip {
                    try connection.run("UPDATE outbox SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1", [.text(owner)])
                }
            }
        }
    }

    @discardableResult
    public func renewLeases(owner: String, ids: [String], until: Date) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip {
                    try connection.run(
                        "UPDATE outbox SET lease_until = $1 WHERE lease_owner = $2 AND id = ANY($3::text[])",
                        [PostgresRows.millis(until), .text(owner), PostgresRows.textArray(ids)])
                }
            }
        }
    }

    public func recordReceipt(
        gateway: String, providerMessageID: String, status: DeliveryStatus, error: String?, at: Date, event: ReceiptEvent?
    ) throws -> Bool {
        // The event's template gets the message's ids from the rows the receipt changed.
        let withEvent = event == nil ? "" : """
            , noted AS (
                \(Self.insertEvent("""
                    SELECT $6, $7, jsonb_set(jsonb_set(jsonb_set($8::jsonb, '{data,message_id}', to_jsonb(a.id)),
                        '{data,verification_id}', to_jsonb(a.verification_id)), '{data,channel}', to_jsonb(a.channel))::text,
                        'queued', 0, $3, $3, $3
                    FROM applied a
                    """)) RETURNING 1
            )
            """
        // One statement, so one snapshot decides between applying and holding: with separate
        // statements a send committing in between would leave the receipt neither applied nor held.
        let sql = """
            WITH known AS (SELECT 1 FROM outbox WHERE provider_message_id = $4 AND gateway = $5 LIMIT 1),
            applied AS (
                UPDATE outbox SET status = $1, last_error = COALESCE($2, last_error), updated_at = $3
                WHERE provider_message_id = $4 AND gateway = $5 AND \(PostgresRows.receiptReplaces("$1", "status"))
                RETURNING id, verification_id, channel
            ),
            held AS (
                INSERT INTO early_receipts (status, last_error, received_at, provider_message_id, gateway)
                SELECT $1, $2, $3, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM known)
                ON CONFLICT (gateway, provider_message_id) DO UPDATE SET
                    status = EXCLUDED.status, last_error = COALESCE(EXCLUDED.last_error, early_receipts.last_error),
                    received_at = EXCLUDED.received_at
                WHERE \(PostgresRows.receiptReplaces("EXCLUDED.status", "early_receipts.status"))
                RETURNING 1
            )\(Self.receiptFollowsFallbacks)\(withEvent)
            SELECT EXISTS (SELECT 1 FROM known) AS found
            """
        let params: [PostgresValue] = [.text(status.rawValue), PostgresRows.text(error), PostgresRows.millis(at), .text(providerMessageID), .text(gateway)]
            + (event.map { [.text($0.id), .text(EventType.deliveryUpdated.rawValue), .text($0.template.body)] } ?? [])
        return try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip { try connection.queryFirst(sql, params) }?.bool("found") == true
            }
        }
    }

    /// The fallbacks of the messages a receipt changed (`applied`), in the receipt's statement:
    /// as `followFallbacks`.
    static let receiptFollowsFallbacks = """
        , dropped AS (
            DELETE FROM outbox d USING applied a
            WHERE $1 = 'delivered' AND d.verification_id = a.verification_id
              AND d.fallback_of IS NOT NULL AND d.attempts = 0 AND d.status = 'queued'
        ),
        hastened AS (
            UPDATE outbox f SET next_attempt_at = $3 FROM applied a
            WHERE $1 IN ('failed', 'undelivered') AND f.fallback_of = a.id
              AND f.status = 'queued' AND f.attempts = 0 AND f.next_attempt_at > $3
        )
        """

    /// `followFallbacks` for every message at once, for receipts the purge applies: pending
    /// fallbacks of delivered verifications go, and those of failed or undelivered messages are
    /// due from when their message ended.
    static let dropDeliveredFallbacks = """
        DELETE FROM outbox d WHERE d.fallback_of IS NOT NULL AND d.attempts = 0 AND d.status = 'queued'
          AND EXISTS (SELECT 1 FROM outbox o WHERE o.verification_id = d.verification_id AND o.status = 'delivered')
        """
    static let hastenFailedFallbacks = """
        UPDATE outbox f SET next_attempt_at = o.updated_at FROM outbox o
        WHERE f.fallback_of IS NOT NULL AND o.id = f.fallback_of AND o.status IN ('failed', 'undelivered')
          AND f.status = 'queued' AND f.attempts = 0 AND f.next_attempt_at > o.updated_at
        """

    /// As SQLite's `followFallbacks`: once any message of the verification is delivered its
    /// pending fallbacks are dropped; once this one failed or was undelivered, its fallback is due.
    static func followFallbacks(messageID: String, now: Date) -> [(sql: String, params: [PostgresValue])] {
        [
            ("""
                DELETE FROM outbox WHERE fallback_of IS NOT NULL AND attempts = 0 AND status = 'queued'
                  AND verification_id = (SELECT verification_id FROM outbox WHERE id = $1 AND status = 'delivered')
                """, [.text(messageID)]),
            ("""
                UPDATE outbox SET next_attempt_at = $2 WHERE fallback_of = $1 AND status = 'queued' AND attempts = 0
                  AND next_attempt_at > $2 AND EXISTS (SELECT 1 FROM outbox WHERE id = $1 AND status IN ('failed', 'undelivered'))
                """, [.text(messageID), PostgresRows.millis(now)]),
        ]
    }

    /// Applies held receipts to the messages whose send has since been recorded, and drops them
    /// (one statement, so a receipt is applied exactly when it is removed).
    static func applyEarlyReceipts(where condition: String) -> String {
        """
        WITH taken AS (
            DELETE FROM early_receipts r USING outbox o
            WHERE o.gateway = r.gateway AND o.provider_message_id = r.provider_message_id AND \(condition)
            RETURNING o.id AS message_id, r.status, r.last_error, r.received_at
        )
        UPDATE outbox o SET status = t.status, last_error = COALESCE(t.last_error, o.last_error),
            updated_at = GREATEST(o.updated_at, t.received_at)
        FROM taken t
        WHERE o.id = t.message_id
          AND \(PostgresRows.receiptReplaces("t.status", "o.status"))
        """
    }

    public func claimedMessageState(messageID: String, owner: String) throws -> ClaimedMessageState {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                let row = try trip {
                    try connection.queryFirst(
                        """
                        SELECT o.status AS message_status, o.lease_owner AS lease_owner, v.status AS verification_status
                        FROM outbox o LEFT JOIN verifications v ON v.id = o.verification_id WHERE o.id = $1
                        """, [.text(messageID)])
                }
                return .of(messageStatus: row?.text("message_status"), leaseOwner: row?.text("lease_owner"),
                           verificationStatus: row?.text("verification_status"), owner: owner)
            }
        }
    }

    public func queueDepth() throws -> (count: Int, oldest: Date?) {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                let row = try trip {
                    try connection.queryFirst("SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM outbox WHERE status = 'queued'")
                }
                return (Int(row?.int("n") ?? 0), row?.int("oldest").map(PostgresRows.date))
            }
        }
    }

    /// Deletes what ended before `cutoff`, like SQLite; only one replica at a time: the others find
    /// the transaction-scoped advisory lock taken and return 0 at once.
    public func purge(endedBefore cutoff: Date, idempotencyBefore: Date) throws -> Int {
        let c = PostgresRows.millis(cutoff)
        return try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                do {
                    let locked = try trip {
                        try connection.pipeline([
                            ("BEGIN", []),
                            ("SELECT pg_try_advisory_xact_lock(\(Self.purgeLockKey)) AS got", []),
                        ])
                    }
                    guard locked[1].first?.bool("got") == true else {
                        try trip { try connection.execute("ROLLBACK") }
                        return 0
                    }
                    let results = try trip {
                        try connection.pipelineResults([
                            ("DELETE FROM verifications WHERE expires_at < $1", [c]),
                            // Twilio-compatible links of purged verifications (not counted: bookkeeping of the rows above).
                            (
                                """
                                DELETE FROM twilio_verifications l WHERE l.created_at < $1
                                    AND NOT EXISTS (SELECT 1 FROM verifications v WHERE v.id = l.verification_id)
                                """, [c]
                            ),
                            ("DELETE FROM outbox WHERE expires_at < $1 AND status <> 'queued'", [c]),
                            ("DELETE FROM idempotency_keys WHERE created_at < $1", [PostgresRows.millis(idempotencyBefore)]),
                            ("DELETE FROM limit_logs WHERE expires_at < $1", [c]),
                            ("DELETE FROM fraud_counts WHERE bucket < $1", [c]),
                            // Receipts held while their message's send committed concurrently, then
                            // those for messages never recorded as sent here (neither counted).
                            (Self.applyEarlyReceipts(where: "TRUE"), []),
                            // The fallbacks of messages those receipts (or any missed follow-up) ended.
                            (Self.dropDeliveredFallbacks, []),
                            (Self.hastenFailedFallbacks, []),
                            ("DELETE FROM early_receipts WHERE received_at < $1", [c]),
                            ("DELETE FROM redeemed_credentials WHERE expires_at < $1", [c]),
                            ("DELETE FROM challenge_replays WHERE expires_at < $1", [c]),
                            // Events delivered or given up on (not counted).
                            ("DELETE FROM events WHERE status <> 'queued' AND updated_at < $1", [c]),
                            ("COMMIT", []),
                        ])
                    }
                    // Count the first six deletions except the links' (index 1).
                    return results.prefix(6).enumerated().reduce(0) { $0 + ($1.offset == 1 ? 0 : $1.element.affectedRows) }
                } catch {
                    if connection.isInTransaction { _ = try? trip { try connection.execute("ROLLBACK") } }
                    throw error
                }
            }
        }
    }

    /// Derived from the schema, so deployments sharing a database in separate schemas purge independently.
    static let purgeLockKey = "hashtextextended('phone-verify purge|' || COALESCE(current_schema(), ''), 0)"

    /// `a, b` → `o.a, o.b`.
    static func prefixed(_ columns: String, _ alias: String) -> String {
        columns.split(separator: ",").map { "\(alias).\($0.trimmingCharacters(in: .whitespacesAndNewlines))" }.joined(separator: ", ")
    }
}
