import Foundation
import SQLite
import VerifyCore

/// `StoreTransaction` over one SQLite connection inside a write (or read) transaction.
struct SQLiteTransaction: StoreTransaction {
    let db: Connection

    func verification(id: String) throws -> Verification? {
        try db.queryOne("SELECT \(SQLiteRows.verificationColumns) FROM verifications WHERE id = ?", [.text(id)])
            .map(SQLiteRows.verification)
    }

    func latestMessage(verificationID: String) throws -> OutboxMessage? {
        try db.queryOne(
            "SELECT \(SQLiteRows.outboxColumns) FROM outbox WHERE verification_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1",
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
            "INSERT INTO verifications (\(SQLiteRows.verificationColumns)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            SQLiteRows.values(verification))
    }

    func update(_ v: Verification) throws {
        try db.run(
            """
            UPDATE verifications SET status = ?, code_hash = ?, attempts = ?, sends = ?, expires_at = ?,
                last_sent_at = ?, resend_available_at = ?, approved_at = ? WHERE id = ?
            """,
            [
                .text(v.storedStatus.rawValue), .blob(v.codeHash), .integer(Int64(v.attempts)), .integer(Int64(v.sends)),
                SQLiteRows.millis(v.expiresAt), SQLiteRows.millis(v.lastSentAt), SQLiteRows.millis(v.resendAvailableAt),
                SQLiteRows.millis(v.approvedAt), .text(v.id),
            ])
    }

    func enqueue(_ message: OutboxMessage) throws {
        try db.run(
            "INSERT INTO outbox (\(SQLiteRows.outboxColumns)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            SQLiteRows.values(message))
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
}
