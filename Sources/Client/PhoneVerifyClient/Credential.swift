import Foundation

/// The signed credential a successful check (or step-up) returns: a JWT the app hands to its own
/// backend, which verifies it through PhoneVerify's JWKS (or redeems it once by introspection).
/// `claims` are decoded from the token's payload **without verifying the signature**: they are
/// for display and routing in the app; never trust them for authorization on the device.
public struct PhoneCredential: Codable, Sendable, Hashable {
    /// The compact JWT.
    public var token: String
    /// `Bearer`
    public var tokenType: String
    /// Lifetime in seconds when it was issued.
    public var expiresIn: Int
    /// When it expires (`exp`, or the moment it was received plus `expiresIn`).
    public var expiresAt: Date
    /// The verification (or challenge) that produced it.
    public var verificationID: String
    /// The token's claims, decoded without verification.
    public var claims: CredentialClaims

    /// Builds a credential from a token (decoding its payload); throws `invalidResponse` if the
    /// token is not a JWS with a JSON payload.
    public init(token: String, tokenType: String = "Bearer", expiresIn: Int, verificationID: String, receivedAt: Date = Date()) throws {
        self.token = token
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.verificationID = verificationID
        self.claims = try CredentialClaims(jwt: token)
        self.expiresAt = claims.expiresAt ?? receivedAt.addingTimeInterval(TimeInterval(expiresIn))
    }

    /// Whether the credential is still usable at `now`.
    public func isExpired(now: Date = Date()) -> Bool { now >= expiresAt }
}

/// The claims of a PhoneVerify credential (docs/API.md "The credential", docs/MFA.md): a
/// first-factor credential has `sub` `tel:+E164` and `acr` `aal1`; a step-up credential has the
/// session's `sub` and `sid`, `acr` `aal2` and `amr` ending in `sms`, `mfa`.
public struct CredentialClaims: Codable, Sendable, Hashable {
    public var issuer: String?
    public var audience: [String]
    public var subject: String?
    public var issuedAt: Date?
    public var notBefore: Date?
    public var expiresAt: Date?
    public var tokenID: String?
    public var authTime: Date?
    public var phoneNumber: String?
    public var phoneNumberVerified: Bool?
    public var authenticationMethods: [String]
    public var assuranceLevel: String?
    public var verificationID: String?
    public var sessionID: String?
    /// The payload exactly as the token carries it (JSON), e.g. to print or forward.
    public var json: Data

    /// Decodes the payload of a compact JWS (`header.payload.signature`), without verifying it.
    public init(jwt: String) throws {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { throw PhoneVerifyError.invalidResponse(status: 200, reason: "the credential is not a JWT with a JSON payload") }
        json = payload
        func date(_ key: String) -> Date? { (object[key] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) } }
        issuer = object["iss"] as? String
        if let one = object["aud"] as? String { audience = [one] } else { audience = object["aud"] as? [String] ?? [] }
        subject = object["sub"] as? String
        issuedAt = date("iat")
        notBefore = date("nbf")
        expiresAt = date("exp")
        tokenID = object["jti"] as? String
        authTime = date("auth_time")
        phoneNumber = object["phone_number"] as? String
        phoneNumberVerified = object["phone_number_verified"] as? Bool
        authenticationMethods = object["amr"] as? [String] ?? []
        assuranceLevel = object["acr"] as? String
        verificationID = object["vid"] as? String
        sessionID = object["sid"] as? String
    }

    /// Whether this is a step-up credential (`acr` `aal2`).
    public var isStepUp: Bool { assuranceLevel == "aal2" }
}

enum Base64URL {
    static func decode(_ text: String) -> Data? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s)
    }

    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
