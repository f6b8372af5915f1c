import Foundation
import SQLite
import VerifyCore

/// Operators' reads of a number's recent verifications (`phone-verify` admin API).
extension SQLiteStore: VerificationAdminStore {
    public func recentVerifications(phoneNumber: String, limit: Int) throws -> [(Verification, OutboxMessage?)] {
        try database.read { db in
            try db.query(
                "SELECT \(SQLiteRows.verificationColumns) FROM verifications WHERE phone_number = ? ORDER BY created_at DESC, id DESC LIMIT ?",
                [.text(phoneNumber), .integer(Int64(limit))]
            ).map { row in
                let v = try SQLiteRows.verification(row)
                let message = try db.queryOne(
                    "SELECT \(SQLiteRows.outboxColumns) FROM outbox WHERE verification_id = ? AND \(SQLiteRows.isDelivery) ORDER BY created_at DESC, rowid DESC LIMIT 1",
                    [.text(v.id)]
                ).map(SQLiteRows.message)
                return (v, message)
            }
        }
    }
}
