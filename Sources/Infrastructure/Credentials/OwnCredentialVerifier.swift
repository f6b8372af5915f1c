import LibCrypto
import Foundation
import VerifyCore

/// Verifies PhoneVerify's own credentials (first-factor and step-up) for introspection: a compact
/// JWS signed by one of the published keys with an asymmetric algorithm (never HS256 or `none`),
/// `iss` and `aud` as configured, `exp` required and in the future, `nbf`/`iat` not in the future,
/// and a `jti` to redeem.
public struct OwnCredentialVerifier: CredentialVerifier {
    /// Clock skew tolerated between the replica that issued a credential and the one checking it.
    public static let leewaySeconds = 5
    /// Longest `jti` accepted (ours are ~30 characters).
    static let maxJTIBytes = 256

    private let own: OwnCredentials
    private let keys: OwnKeySet
    private let clock: any Clock

    public init(own: OwnCredentials, clock: any Clock) {
        self.own = own
        self.keys = OwnKeySet(jwks: own.jwks, refresh: own.refresh)
        self.clock = clock
    }

    public func verify(_ token: String) throws -> VerifiedCredential {
        let parts = try JWTParts(compact: token)
        guard let algorithm = parts.algorithm.publicKeyAlgorithm else { throw JWTFailure.reject("unsupported token algorithm") }
        let claims = try JWTClaims(
            payload: parts.claims, expecting: .init(issuer: own.issuer, audience: own.audience, leewaySeconds: Self.leewaySeconds),
            now: clock.now())
        guard let jti = parts.claims["jti"]?.stringValue, !jti.isEmpty, jti.utf8.count <= Self.maxJTIBytes else {
            throw JWTFailure.reject("token has no jti")
        }
        try keys.keys(keyID: parts.keyID).checkSignature(of: parts, algorithm: algorithm)
        return VerifiedCredential(jti: jti, expiresAt: claims.expiresAt, claims: parts.claims)
    }
}
