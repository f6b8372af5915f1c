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

extension InMemoryStore.State {
    /// As the SQL stores' `followFallbacks`: a delivered message drops its verification's pending
    /// fallbacks; a failed or undelivered one makes its own fallback due at once.
    mutating func followFallbacks(of id: String, now: Date) {
        guard let message = messages.first(where: { $0.id == id }) else { return }
        let pending = { (m: OutboxMessage) in m.fallbackOf != nil && m.attempts == 0 && m.status == .queued }
        if message.status == .delivered {
            messages.removeAll { $0.verificationID == message.verificationID && pending($0) }
        } else if message.status == .failed || message.status == .undelivered {
            for i in messages.indices where messages[i].fallbackOf == id && pending(messages[i]) && messages[i].nextAttemptAt > now {
                messages[i].nextAttemptAt = now
            }
        }
    }
}
