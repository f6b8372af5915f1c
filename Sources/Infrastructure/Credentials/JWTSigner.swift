import LibCrypto
import Foundation
import VerifyCore

/// A signing key with the identity JWS needs.
public struct JWTSigner: CredentialSigner {
    public let key: SigningKey
    public let keyID: String
    public var algorithm: String { key.algorithm.rawValue }

    public init(key: SigningKey) throws {
        self.key = key
        self.keyID = try key.thumbprint()
    }

    public func sign(_ message: [UInt8]) throws -> [UInt8] { try key.sign(message) }

    /// The public JWK with `kid`, `alg` and `use`.
    public func publicJWK() throws -> JSONValue {
        let jwk = try key.publicJWK()
        var members = jwk.keys.sorted().map { JSONMember($0, .string(jwk[$0]!)) }
        members.append(JSONMember("kid", .string(keyID)))
        members.append(JSONMember("alg", .string(algorithm)))
        members.append(JSONMember("use", "sig"))
        return .object(members)
    }
}

/// The active signer plus keys that still verify earlier credentials.
public struct StaticKeyRing: KeyRing {
    public let active: JWTSigner
    private let jwks: [JSONValue]

    public init(active: JWTSigner, verifying: [JWTSigner] = []) throws {
        self.active = active
        self.jwks = try ([active] + verifying).map { try $0.publicJWK() }
    }

    public func currentSigner() throws -> any CredentialSigner { active }
    public func publicJWKs() -> [JSONValue] { jwks }
}
