import Gateways
import Foundation
import Encoding
import LibCrypto
import VerifyCore

/// The JWT a Vonage application authenticates Voice API calls with: RS256, signed with the
/// application's private key, claims `application_id`, `iat`, `exp` and a unique `jti`.
/// A fresh token is made for every call (one RSA signature, well under a millisecond).
public struct VonageApplicationToken: Sendable {
    /// Seconds a token is valid; Vonage's default is 15 minutes, one call needs seconds.
    public static let defaultLifetime: TimeInterval = 300

    public let applicationID: String
    let key: SigningKey
    let lifetime: TimeInterval

    /// - Throws: ``VonageKeyError`` unless `key` is an RSA key (Vonage applications use RS256).
    public init(applicationID: String, key: SigningKey, lifetime: TimeInterval = VonageApplicationToken.defaultLifetime) throws {
        guard key.algorithm == .rs256 else { throw VonageKeyError() }
        self.applicationID = applicationID
        self.key = key
        self.lifetime = lifetime
    }

    /// `base64url(header).base64url(claims).base64url(RS256 signature)`; `jti` is 16 random
    /// bytes, base64url, unless given (tests).
    public func token(at now: Date, jti: String? = nil) throws -> String {
        let issuedAt = Int64(now.timeIntervalSince1970)
        let header: JSONValue = .object([JSONMember("alg", "RS256"), JSONMember("typ", "JWT")])
        let claims: JSONValue = .object([
            JSONMember("application_id", .string(applicationID)), JSONMember("iat", .int(issuedAt)),
            JSONMember("exp", .int(issuedAt + Int64(lifetime))),
            JSONMember("jti", .string(jti ?? Base64URL.encode(SecureRandom.bytes(16)))),
        ])
        let input = Base64URL.encode(header.encoded()) + "." + Base64URL.encode(claims.encoded())
        return input + "." + Base64URL.encode(try key.sign(Array(input.utf8)))
    }
}

/// A Vonage application key must be RSA (RS256).
public struct VonageKeyError: Error, CustomStringConvertible {
    public var description: String { "the Vonage application private key must be an RSA key (RS256)" }
}
