import Foundation

/// Signs credentials. The private key never leaves the implementation.
public protocol CredentialSigner: Sendable {
    /// JWS `alg`, e.g. "EdDSA".
    var algorithm: String { get }
    /// JWS `kid`.
    var keyID: String { get }
    func sign(_ message: [UInt8]) throws -> [UInt8]
}

/// The signing keys: the one that signs now and every public key still verifying.
public protocol KeyRing: Sendable {
    /// Throws `unavailable` when this replica has no key it may sign with (its key was retired).
    func currentSigner() throws -> any CredentialSigner
    /// Public JWKs (with `kid`, `alg`, `use`) of every active and still-verifying key.
    func publicJWKs() -> [JSONValue]
    /// A credential names a key this ring does not publish: reread the keys now if allowed
    /// (rate-limited), in case another replica has just activated it.
    func refreshForUnknownKey()
}

extension KeyRing {
    public func refreshForUnknownKey() {}
}

/// A signed credential handed to the client.
public struct Credential: Sendable, Equatable {
    public let token: String
    public let tokenType: String
    public let expiresIn: Int

    public init(token: String, tokenType: String = "Bearer", expiresIn: Int) {
        self.token = token
        self.tokenType = tokenType
        self.expiresIn = expiresIn
    }
}

/// Turns an approved verification into a JWT the main auth server verifies through JWKS.
public struct CredentialIssuer: Sendable {
    public let issuer: String
    public let audience: String
    /// Credential lifetime in seconds.
    public let lifetime: Int
    private let keys: any KeyRing
    private let random: any RandomSource

    public init(issuer: String, audience: String, lifetime: Int = 300, keys: any KeyRing, random: any RandomSource) {
        self.issuer = issuer
        self.audience = audience
        self.lifetime = lifetime
        self.keys = keys
        self.random = random
    }

    /// Throws unless a credential can be signed now; called before a check approves anything,
    /// so a replica that cannot sign does not use up a correct code.
    public func requireSigner() throws {
        _ = try keys.currentSigner()
    }

    /// First-factor credential: `sub` is `tel:+E164`, `amr` ["sms"], `acr` "aal1". Only for a
    /// sign-in verification: a delegated one (`Purpose.isDelegated`) may carry a code its
    /// caller chose for a number it does not hold, so it must never prove the number (defence in
    /// depth: the native routes do not reach those verifications either).
    public func firstFactor(for verification: Verification, at now: Date) throws -> Credential {
        guard verification.purpose == .signIn else { throw Self.refused(verification) }
        return try issue(
            subject: "tel:" + verification.phoneNumber, verification: verification, now: now,
            amr: ["sms"], acr: "aal1", sessionID: nil)
    }

    /// Step-up credential: the primary session's `sub` and `sid`, its `amr` plus "sms" and "mfa"
    /// (RFC 8176), `acr` "aal2", and a fresh `auth_time`.
    public func stepUp(for principal: Principal, verification: Verification, at now: Date) throws -> Credential {
        guard !verification.purpose.isDelegated else { throw Self.refused(verification) }
        var amr = principal.authenticationMethods
        for method in ["sms", "mfa"] where !amr.contains(method) { amr.append(method) }
        return try issue(
            subject: principal.subject, verification: verification, now: now, amr: amr, acr: "aal2",
            sessionID: principal.sessionID)
    }

    static func refused(_ verification: Verification) -> VerifyError {
        VerifyError(.forbidden, "no credential is issued for a \(verification.purpose.rawValue) verification")
    }

    /// Builds and signs a credential with the common claims.
    public func issue(
        subject: String, verification: Verification, now: Date, amr: [String], acr: String, sessionID: String?
    ) throws -> Credential {
        let signer = try keys.currentSigner()
        let iat = Int64(now.timeIntervalSince1970)
        var claims: [JSONMember] = [
            JSONMember("iss", .string(issuer)),
            JSONMember("aud", .string(audience)),
            JSONMember("sub", .string(subject)),
            JSONMember("iat", .int(iat)),
            JSONMember("nbf", .int(iat)),
            JSONMember("exp", .int(iat + Int64(lifetime))),
            JSONMember("jti", .string(random.identifier(prefix: "jti_"))),
            JSONMember("auth_time", .int(iat)),
            JSONMember("phone_number", .string(verification.phoneNumber)),
            JSONMember("phone_number_verified", .bool(true)),
            JSONMember("amr", .array(amr.map { .string($0) })),
            JSONMember("acr", .string(acr)),
        ]
        if let sessionID { claims.append(JSONMember("sid", .string(sessionID))) }
        claims.append(JSONMember("vid", .string(verification.id)))
        let header: JSONValue = [
            "alg": .string(signer.algorithm), "typ": "JWT", "kid": .string(signer.keyID),
        ]
        // header.claims.signature, built as bytes: the signing input is the token's first two parts.
        var token: [UInt8] = []
        token.reserveCapacity(768)
        Base64URL.append(header.encoded(), to: &token)
        token.append(UInt8(ascii: "."))
        Base64URL.append(JSONValue.object(claims).encoded(), to: &token)
        let signature = try signer.sign(token)
        token.append(UInt8(ascii: "."))
        Base64URL.append(signature, to: &token)
        return Credential(token: String(decoding: token, as: UTF8.self), expiresIn: lifetime)
    }
}
