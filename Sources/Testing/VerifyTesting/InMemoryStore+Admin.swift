import Foundation
import VerifyCore

extension InMemoryStore: VerificationAdminStore {
    public func recentVerifications(phoneNumber: String, limit: Int) throws -> [(Verification, OutboxMessage?)] {
        try read { reader in
            let tx = reader as! Transaction
            return try tx.state.verifications.values.filter { $0.phoneNumber == phoneNumber }
                .sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }.prefix(limit)
                .map { ($0, try tx.latestMessage(verificationID: $0.id)) }
        }
    }
}
