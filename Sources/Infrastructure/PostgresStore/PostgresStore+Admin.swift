import Foundation
import Postgres
import VerifyCore

/// Operators' reads of a number's recent verifications, shared by every replica.
extension PostgresStore: VerificationAdminStore {
    public func recentVerifications(phoneNumber: String, limit: Int) throws -> [(Verification, OutboxMessage?)] {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                let rows = try trip {
                    try connection.query(
                        "SELECT \(PostgresRows.verificationColumns) FROM verifications WHERE phone_number = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
                        [.text(phoneNumber), .int(Int64(limit))])
                }
                return try rows.map { row in
                    let v = try PostgresRows.verification(row)
                    let message = try trip {
                        try connection.queryFirst(
                            "SELECT \(PostgresRows.outboxColumns) FROM outbox WHERE verification_id = $1 AND \(PostgresRows.isDelivery) ORDER BY created_at DESC, seq DESC LIMIT 1",
                            [.text(v.id)])
                    }.map(PostgresRows.message)
                    return (v, message)
                }
            }
        }
    }
}
