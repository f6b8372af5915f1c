import CurlClient
import Foundation
import LibCrypto
import VerifyCore

/// How to trust grants: who mints them, for whom, and with which key.
public struct GrantConfiguration: Sendable, Equatable {
    /// The `iss` grants must carry (the customer's backend).
    public var issuer: String
    /// A value `aud` must contain (this PhoneVerify).
    public var audience: String
    /// A shared HS256 secret (at least 32 bytes); HS256 grants are refused without it.
    public var hs256Secret: String?
    /// The backend's JWKS (ES256, RS256, EdDSA keys), fetched and cached.
    public var jwksURL: String?
    /// Longest `exp − iat` accepted, in seconds.
    public var maxLifetimeSeconds: Int
    /// Clock skew tolerated on `exp`, `iat` and `nbf`, in seconds.
    public var leewaySeconds: Int

    public init(
        issuer: String, audience: String, hs256Secret: String? = nil, jwksURL: String? = nil,
        maxLifetimeSeconds: Int = 300, leewaySeconds: Int = 10
    ) {
        self.issuer = issuer
        self.audience = audience
        self.hs256Secret = hs256Secret
        self.jwksURL = jwksURL
        self.maxLifetimeSeconds = maxLifetimeSeconds
        self.leewaySeconds = leewaySeconds
    }
}

/// The `grant` provider: a short-lived JWT the customer's own backend signs for one phone number
/// and one use (docs/CHALLENGES.md). HS256 only with the configured secret; ES256, RS256 and
/// EdDSA only with a key of the configured JWKS whose type matches the header's `alg`; `none`,
/// every other `alg` and any `crit` header are refused, and a public key is never an HMAC
/// secret. Claims are checked before the signature, so a grant that would fail anyway never
/// triggers a JWKS fetch.
///
/// `@unchecked Sendable`: every stored property is immutable; the JWKS cache locks itself.
public final class GrantVerifier: ChallengeVerifier, @unchecked Sendable {
    public static let providerName = "grant"
    /// Largest grant accepted, in bytes; larger ones are refused before any work.
    public static let maxTokenBytes = 8 * 1024

    public var provider: String { Self.providerName }
    public var publicParameters: [String: String] { [:] }

    private let expectations: GrantClaims.Expectations
    private let hmacKey: [UInt8]?
    private let jwks: JWKSCache?

    /// Validates the configuration and tries the JWKS URL once (an unreachable URL is retried
    /// when grants arrive).
    /// - Throws: ``SessionTokenConfigurationError`` for an unusable configuration.
    public init(configuration: GrantConfiguration, clock: any Clock, http: HTTPClient) throws {
        let secret = configuration.hs256Secret.flatMap { $0.isEmpty ? nil : $0 }
        let url = configuration.jwksURL.flatMap { $0.isEmpty ? nil : $0 }
        guard secret != nil || url != nil else {
            throw SessionTokenConfigurationError("set an HS256 secret or a JWKS URL for grants")
        }
        guard !configuration.issuer.isEmpty, !configuration.audience.isEmpty else {
            throw SessionTokenConfigurationError("the grant issuer and audience must not be empty")
        }
        guard configuration.maxLifetimeSeconds > 0, (0...300).contains(configuration.leewaySeconds) else {
            throw SessionTokenConfigurationError("the grant lifetime must be positive and the leeway 0–300 seconds")
        }
        expectations = .init(
            issuer: configuration.issuer, audience: configuration.audience,
            maxLifetimeSeconds: configuration.maxLifetimeSeconds, leewaySeconds: configuration.leewaySeconds)
        hmacKey = secret.map { Array($0.utf8) }
        jwks = try url.map { try JWKSCache(url: $0, file: nil, http: http, clock: clock, minRefreshSeconds: 30, maxAgeSeconds: 3600) }
    }

    public func verify(_ submission: ChallengeSubmission, context: ChallengeContext) throws -> ChallengeProof {
        let token = submission.token
        guard !token.isEmpty else { throw Self.malformed("is required") }
        guard token.utf8.count <= Self.maxTokenBytes else { throw Self.malformed("is longer than \(Self.maxTokenBytes) bytes") }
        let parts: JWTParts
        do { parts = try JWTParts(compact: token) } catch let error as VerifyError { throw Self.failed(error.message) }
        let claims: GrantClaims
        do {
            claims = try GrantClaims(payload: parts.claims, expecting: expectations, context: context)
        } catch let error as VerifyError {
            // Which claim is wrong tells a stranger what a valid grant holds (issuer, audience,
            // lifetime): it is said only of a grant whose signature is good. An HS256 signature is
            // cheap to check; a JWKS one would cost a fetch for junk, so it gets the generic answer.
            guard parts.algorithm.publicKeyAlgorithm == nil, hmacKey != nil else { throw Self.failed("the grant is not valid") }
            try checkSignature(parts)
            throw error
        }
        try checkSignature(parts)
        // Accepted until exp + leeway: remembered as long.
        return ChallengeProof(
            provider: provider, replayKey: "jti:" + claims.issuer + "|" + claims.jti,
            replayExpiresAt: claims.expiresAt.addingTimeInterval(TimeInterval(expectations.leewaySeconds)))
    }

    private func checkSignature(_ parts: JWTParts) throws {
        guard let algorithm = parts.algorithm.publicKeyAlgorithm else {
            // HS256: only ever the configured secret, never key material from the JWKS.
            guard let hmacKey else { throw Self.failed("unsupported token algorithm") }
            guard ConstantTime.equals(HMAC.sha256(key: hmacKey, data: parts.signingInput), parts.signature) else {
                throw Self.failed("invalid token signature")
            }
            return
        }
        guard let jwks else { throw Self.failed("unsupported token algorithm") }
        do { try jwks.keys(keyID: parts.keyID).checkSignature(of: parts, algorithm: algorithm) } catch let error as VerifyError {
            throw Self.failed(error.message)
        }
    }

    /// `challenge_failed` with a fixed reason (never token content).
    static func failed(_ reason: String) -> VerifyError {
        VerifyError(.challengeFailed, "the grant challenge failed: \(reason)", details: ["provider": .string(providerName)])
    }

    static func malformed(_ problem: String) -> VerifyError {
        VerifyError(.invalidRequest, "challenge.token \(problem)", details: ["field": "challenge.token"])
    }
}
