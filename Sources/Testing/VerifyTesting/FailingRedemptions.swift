import Foundation
import VerifyCore

/// A redemption store that is down: every call throws `Down`.
public struct FailingRedemptions: CredentialRedemptionStore {
    public struct Down: Error {}
    public init() {}
    public func redeem(jti: String, expiresAt: Date, attempt: String) throws -> Bool { throw Down() }
}
