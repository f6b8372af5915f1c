import Foundation
import Encoding

/// Reads a store gives operators: a number's recent verifications.
public protocol VerificationAdminStore: Sendable {
    /// The newest verifications of `phoneNumber` (E.164), newest first, at most `limit`, each
    /// with its latest outbox message (for its delivery state).
    func recentVerifications(phoneNumber: String, limit: Int) throws -> [(Verification, OutboxMessage?)]
}

/// Reads a store gives operators: the MFA factors enrolled with a number, whoever's they are
/// (the console's lookup page; factors are otherwise read by subject).
public protocol FactorAdminStore: Sendable {
    /// Factors whose phone is `phoneNumber` (E.164), oldest first, at most `limit`.
    func factors(phoneNumber: String, limit: Int) throws -> [Factor]
}

/// Support's view of a number ("I never got my code"): its recent verifications with their
/// status and delivery state — never a code (only hashes are stored anyway).
public struct VerificationAdmin: Sendable {
    public static let maxLimit = 100
    let store: any VerificationAdminStore
    let clock: any Clock

    public init(store: any VerificationAdminStore, clock: any Clock) {
        self.store = store
        self.clock = clock
    }

    public func list(phone: String, limit: Int = 20) throws -> [VerificationView] {
        guard phone.hasPrefix("+"), (2...16).contains(phone.count), phone.dropFirst().allSatisfy(ASCII.isDigit) else {
            throw VerifyError(
                .invalidPhoneNumber, "phone_number must be in E.164 form (+ and digits)",
                details: ["reason": "not_a_number", "field": "phone_number"])
        }
        guard (1...Self.maxLimit).contains(limit) else {
            throw VerifyError(.invalidRequest, "limit must be 1–\(Self.maxLimit)", details: ["field": "limit"])
        }
        let now = clock.now()
        return try store.recentVerifications(phoneNumber: phone, limit: limit).map { v, message in
            VerificationView(verification: v, status: v.status(at: now), delivery: message?.delivery)
        }
    }
}
