import LibCrypto
import Foundation
import CurlClient
import VerifyCore

/// How to trust the main auth server's session tokens (JWTs).
///
/// At least one key source is needed: `jwksURL`, `jwksFile` and/or `hs256Secret`. Production
/// should always set `issuer` and `audience`: when nil, any `iss` / `aud` is accepted, so a token
/// the auth server minted for another service would be accepted here too.
public struct AuthCoreConfiguration: Sendable, Equatable {
    /// The auth server's JWKS endpoint (https in production), fetched and cached.
    public var jwksURL: String?
    /// A JWK set on disk, read at start and reread on an unknown `kid`.
    public var jwksFile: String?
    /// A shared HS256 secret (at least 32 bytes of UTF-8); HS256 tokens are refused without it.
    public var hs256Secret: String?
    /// The `iss` tokens must carry; nil accepts any (not for production).
    public var issuer: String?
    /// A value `aud` must contain; nil accepts any (not for production).
    public var audience: String?
    /// Clock skew tolerated on `exp`, `nbf` and `iat`, in seconds (0...600).
    public var leewaySeconds: Int
    /// Least time between two JWKS refreshes, in seconds.
    public var jwksMinRefreshSeconds: Int
    /// Keys older than this are refreshed (as soon as the minimum interval allows), in seconds.
    public var jwksMaxAgeSeconds: Int

    public init(
        jwksURL: String? = nil, jwksFile: String? = nil, hs256Secret: String? = nil, issuer: String? = nil,
        audience: String? = nil, leewaySeconds: Int = 30, jwksMinRefreshSeconds: Int = 30,
        jwksMaxAgeSeconds: Int = 3600
    ) {
        self.jwksURL = jwksURL
        self.jwksFile = jwksFile
        self.hs256Secret = hs256Secret
        self.issuer = issuer
        self.audience = audience
        self.leewaySeconds = leewaySeconds
        self.jwksMinRefreshSeconds = jwksMinRefreshSeconds
        self.jwksMaxAgeSeconds = jwksMaxAgeSeconds
    }
}

/// PhoneVerify's own step-up credentials, accepted as bearer tokens too: `iss` equal to `issuer`,
/// `aud` containing `audience`, `amr` containing "mfa", signed by one of the public keys `jwks`
/// returns (called on each such verification, so rotated keys are picked up; keep it cheap: parsed
/// keys are reused while the returned set is unchanged). HS256 is never accepted for these.
public struct OwnCredentials: Sendable {
    public var issuer: String
    public var audience: String
    /// Public JWKs (with `kid`; `alg` and `use` are honoured) of every key that still verifies.
    public var jwks: @Sendable () -> [[String: String]]
    /// Called when a credential names a key `jwks` does not have (another replica may have just
    /// rotated): should reread the published keys, rate-limited.
    public var refresh: @Sendable () -> Void

    public init(
        issuer: String, audience: String, refresh: @escaping @Sendable () -> Void = {},
        jwks: @escaping @Sendable () -> [[String: String]]
    ) {
        self.issuer = issuer
        self.audience = audience
        self.refresh = refresh
        self.jwks = jwks
    }
}

/// A configuration that cannot work (thrown by ``SessionTokenVerifier/init(configuration:own:clock:http:)``).
public struct SessionTokenConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Verifies bearer tokens: the main auth server's session tokens and PhoneVerify's own step-up
/// credentials (compact JWS, RFC 7515/7519).
///
/// - Algorithms: EdDSA (Ed25519), ES256 (P-256), RS256 with a JWK of the matching key type, and
///   HS256 with the configured shared secret only. `none`, every other `alg`, and any `crit`
///   header are refused; a public key is never used as an HMAC secret.
/// - Claims: `exp` required; `exp`, `nbf`, `iat` checked with the leeway; `iss` and `aud` as
///   configured; `sub` required; `sid`, `amr`, `auth_time`, `acr` type-checked when present.
///   A token whose `iss` is ``OwnCredentials/issuer`` is checked against the own keys and
///   audience only, must be a step-up credential (`amr` contains "mfa"; first-factor credentials
///   are refused), and yields a principal with `isStepUpCredential`.
/// - Keys: see ``AuthCoreConfiguration`` and the JWKS cache (refresh on unknown `kid`,
///   rate-limited, single-flight).
///
/// Every failure throws `VerifyError(.unauthenticated)` with a short fixed reason (never the
/// token). Thread-safe; `verify` may block on a JWKS fetch (bounded by short timeouts), so call
/// it from HTTP worker threads.
///
/// `@unchecked Sendable`: every stored property is immutable; the JWKS cache and the own key set
/// do their own locking.
public final class SessionTokenVerifier: SessionVerifier, @unchecked Sendable {
    private let configuration: AuthCoreConfiguration
    private let own: OwnCredentials?
    private let clock: any Clock
    private let hmacKey: [UInt8]?
    private let jwks: JWKSCache?

    /// The own JWK set, parsed once per rotation.
    private let ownKeys: OwnKeySet?

    /// Shortest accepted HS256 secret, in bytes (RFC 7518 §3.2: at least the hash size).
    public static let minimumSecretBytes = 32

    /// Validates the configuration, reads the JWKS file and tries the JWKS URL once (an
    /// unreachable URL is not an error: it is retried when tokens arrive).
    /// - Throws: ``SessionTokenConfigurationError`` for an unusable configuration or JWKS file.
    public init(
        configuration: AuthCoreConfiguration, own: OwnCredentials?, clock: any Clock, http: HTTPClient = HTTPClient()
    ) throws {
        var configuration = configuration
        configuration.jwksURL = configuration.jwksURL.flatMap { $0.isEmpty ? nil : $0 }
        configuration.jwksFile = configuration.jwksFile.flatMap { $0.isEmpty ? nil : $0 }
        configuration.hs256Secret = configuration.hs256Secret.flatMap { $0.isEmpty ? nil : $0 }
        try Self.validate(configuration, own: own)
        self.configuration = configuration
        self.own = own
        self.ownKeys = own.map { OwnKeySet(jwks: $0.jwks, refresh: $0.refresh) }
        self.clock = clock
        self.hmacKey = configuration.hs256Secret.map { Array($0.utf8) }
        if configuration.jwksURL != nil || configuration.jwksFile != nil {
            jwks = try JWKSCache(
                url: configuration.jwksURL, file: configuration.jwksFile, http: http, clock: clock,
                minRefreshSeconds: configuration.jwksMinRefreshSeconds,
                maxAgeSeconds: configuration.jwksMaxAgeSeconds)
        } else {
            jwks = nil
        }
    }

    /// Verifies `token` (without the `Bearer ` prefix) and says whose session it is.
    /// - Throws: `VerifyError(.unauthenticated, reason)`.
    public func verify(_ token: String) throws -> Principal {
        let parts = try JWTParts(compact: token)
        let stepUp = own.map { parts.claims["iss"]?.stringValue == $0.issuer } ?? false
        let expectations: JWTClaims.Expectations
        if stepUp, let own {
            expectations = .init(issuer: own.issuer, audience: own.audience, leewaySeconds: configuration.leewaySeconds)
        } else {
            expectations = .init(
                issuer: configuration.issuer, audience: configuration.audience,
                leewaySeconds: configuration.leewaySeconds)
        }
        // Claims first: cheap, and a token that would fail anyway never triggers a JWKS fetch.
        let claims = try JWTClaims(payload: parts.claims, expecting: expectations, now: clock.now())
        // Our first-factor credentials share the issuer and audience; only step-up ones (RFC 8176
        // `amr` with "mfa") are accepted as bearer tokens.
        if stepUp && !claims.authenticationMethods.contains("mfa") {
            throw JWTFailure.reject("not a step-up credential")
        }
        try checkSignature(parts, stepUp: stepUp)
        return Principal(
            subject: claims.subject, sessionID: claims.sessionID, authenticationMethods: claims.authenticationMethods,
            authTime: claims.authTime, acr: claims.acr, isStepUpCredential: stepUp)
    }

    /// Rereads the JWKS file and refetches the JWKS URL now (ignoring the minimum interval).
    public func refreshNow() {
        jwks?.refreshNow()
    }

    // MARK: - Signatures

    private func checkSignature(_ parts: JWTParts, stepUp: Bool) throws {
        guard let algorithm = parts.algorithm.publicKeyAlgorithm else {
            // HS256: only ever the configured shared secret, never key material from a JWK set.
            guard !stepUp, let hmacKey else { throw JWTFailure.reject("unsupported token algorithm") }
            let expected = HMAC.sha256(key: hmacKey, data: parts.signingInput)
            guard ConstantTime.equals(expected, parts.signature) else {
                throw JWTFailure.reject("invalid token signature")
            }
            return
        }
        let keys = stepUp ? (ownKeys?.keys(keyID: parts.keyID) ?? []) : (jwks?.keys(keyID: parts.keyID) ?? [])
        try keys.checkSignature(of: parts, algorithm: algorithm)
    }

    // MARK: - Configuration

    private static func validate(_ configuration: AuthCoreConfiguration, own: OwnCredentials?) throws {
        guard configuration.jwksURL != nil || configuration.jwksFile != nil || configuration.hs256Secret != nil else {
            throw SessionTokenConfigurationError("set a JWKS URL, a JWKS file or an HS256 secret for the auth server")
        }
        if let secret = configuration.hs256Secret, secret.utf8.count < minimumSecretBytes {
            throw SessionTokenConfigurationError("the HS256 secret must be at least \(minimumSecretBytes) bytes")
        }
        if configuration.issuer?.isEmpty == true || configuration.audience?.isEmpty == true {
            throw SessionTokenConfigurationError("the issuer and audience must not be empty strings")
        }
        guard (0...600).contains(configuration.leewaySeconds) else {
            throw SessionTokenConfigurationError("the leeway must be between 0 and 600 seconds")
        }
        guard configuration.jwksMinRefreshSeconds >= 0, configuration.jwksMaxAgeSeconds > 0 else {
            throw SessionTokenConfigurationError("JWKS refresh intervals must be positive")
        }
        if let own {
            guard !own.issuer.isEmpty, !own.audience.isEmpty else {
                throw SessionTokenConfigurationError("the own credential issuer and audience must be set")
            }
            guard own.issuer != configuration.issuer else {
                throw SessionTokenConfigurationError("the auth server's issuer must differ from PhoneVerify's own")
            }
        }
    }
}
