import Foundation

/// One of this service's credentials whose signature, issuer, audience and time were checked.
public struct VerifiedCredential: Sendable, Equatable {
    /// The `jti` claim: what redemption records.
    public let jti: String
    /// The `exp` claim.
    public let expiresAt: Date
    /// Every claim as signed (a JSON object).
    public let claims: JSONValue

    public init(jti: String, expiresAt: Date, claims: JSONValue) {
        self.jti = jti
        self.expiresAt = expiresAt
        self.claims = claims
    }
}

/// Checks that a token is a credential this service issued and that it is valid now.
public protocol CredentialVerifier: Sendable {
    /// - Throws: `VerifyError(.unauthenticated)` with a short fixed reason when it is not.
    func verify(_ token: String) throws -> VerifiedCredential
}

/// Remembers which credentials were redeemed (shared by every replica).
public protocol CredentialRedemptionStore: Sendable {
    /// Records `jti` as redeemed by `attempt`; false when another attempt redeemed it before. The
    /// same attempt asking again gets true, so a store may retry after losing its connection
    /// without calling a first redemption a replay. Kept at least until `expiresAt` (after that the
    /// credential is refused anyway), then purged.
    func redeem(jti: String, expiresAt: Date, attempt: String) throws -> Bool
}

/// RFC 7662 token introspection of this service's credentials, with one-time redemption: the
/// first introspection of a valid credential says it is active and redeems it; every later one,
/// on any replica, says it is not.
public struct CredentialIntrospector: Sendable {
    let verifier: any CredentialVerifier
    let redemptions: any CredentialRedemptionStore
    let random: any RandomSource

    public init(verifier: any CredentialVerifier, redemptions: any CredentialRedemptionStore, random: any RandomSource) {
        self.verifier = verifier
        self.redemptions = redemptions
        self.random = random
    }

    /// The credential, now redeemed; nil when it is inactive (not ours, tampered with, expired,
    /// not yet valid, or redeemed before).
    /// - Throws: only store failures (the caller cannot tell "inactive" then, so it must not say so).
    public func introspect(_ token: String) throws -> VerifiedCredential? {
        let credential: VerifiedCredential
        do {
            credential = try verifier.verify(token)
        } catch let error as VerifyError where error.code == .unauthenticated {
            return nil
        }
        let attempt = random.identifier(prefix: "red_")
        return try redemptions.redeem(jti: credential.jti, expiresAt: credential.expiresAt, attempt: attempt) ? credential : nil
    }
}
