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
    func currentSigner() -> any CredentialSigner
    /// Public JWKs (with `kid`, `alg`, `use`) of every active and still-verifying key.
    func publicJWKs() -> [JSONValue]
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

    /// First-factor credential: `sub` is `tel:+E164`, `amr` ["sms"], `acr` "aal1".
    public func firstFactor(for verification: Verification, at now: Date) throws -> Credential {
        try issue(
            subject: "tel:" + verification.phoneNumber, verification: verification, now: now,
            amr: ["sms"], acr: "aal1", sessionID: nil)
    }

    /// Step-up credential: the primary session's `sub` and `sid`, its `amr` plus "sms" and "mfa"
    /// (RFC 8176), `acr` "aal2", and a fresh `auth_time`.
    public func stepUp(for principal: Principal, verification: Verification, at now: Date) throws -> Credential {
        var amr = principal.authenticationMethods
        for method in ["sms", "mfa"] where !amr.contains(method) { amr.append(method) }
        return try issue(
            subject: principal.subject, verification: verification, now: now, amr: amr, acr: "aal2",
            sessionID: principal.sessionID)
    }

    /// Builds and signs a credential with the common claims.
    public func issue(
        subject: String, verification: Verification, now: Date, amr: [String], acr: String, sessionID: String?
    ) throws -> Credential {
        let signer = keys.currentSigner()
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
        let signingInput =
            Base64URL.encode(header.encoded()) + "." + Base64URL.encode(JSONValue.object(claims).encoded())
        let signature = try signer.sign(Array(signingInput.utf8))
        return Credential(token: signingInput + "." + Base64URL.encode(signature), expiresIn: lifetime)
    }
}

/// Base64url without padding (RFC 7515 §2).
public enum Base64URL {
    public static func encode(_ bytes: [UInt8]) -> String {
        var s = Data(bytes).base64EncodedString()
        s = s.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while s.hasSuffix("=") { s.removeLast() }
        return s
    }

    public static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ isAlphabet($0) }) else { return nil }
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.utf8.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s).map { [UInt8]($0) }
    }

    private static func isAlphabet(_ c: UInt8) -> Bool {
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 95
    }
}
