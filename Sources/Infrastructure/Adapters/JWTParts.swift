import LibCrypto
import Foundation
import VerifyCore

/// The JWS algorithms a session token may use. Anything else (`none`, `HS384`, `PS256`, …) is refused.
public enum JWTAlgorithm: String, Sendable, CaseIterable {
    case edDSA = "EdDSA"
    case es256 = "ES256"
    case rs256 = "RS256"
    case hs256 = "HS256"

    /// The asymmetric algorithm a public key must have, or nil for HS256 (shared secret only).
    var publicKeyAlgorithm: SigningAlgorithm? {
        switch self {
        case .edDSA: return .ed25519
        case .es256: return .es256
        case .rs256: return .rs256
        case .hs256: return nil
        }
    }
}

/// A compact JWS (`header.payload.signature`) split, strictly decoded and shape-checked.
///
/// Nothing here is trusted: the signature is not verified yet. Every failure is
/// `VerifyError(.unauthenticated)` with a short reason that never quotes the token.
public struct JWTParts: Sendable {
    /// Largest token accepted, in bytes (session tokens are a few hundred bytes to ~2 KiB).
    static let maxTokenBytes = 16 * 1024
    /// Longest `kid` accepted.
    static let maxKeyIDBytes = 256

    public let algorithm: JWTAlgorithm
    /// The header's `kid`, if any.
    let keyID: String?
    /// The payload, a JSON object.
    public let claims: JSONValue
    /// ASCII bytes of `header.payload`, what the signature covers.
    public let signingInput: [UInt8]
    public let signature: [UInt8]

    public init(compact token: String) throws {
        let bytes = token.utf8
        guard !bytes.isEmpty else { throw JWTFailure.reject("empty token") }
        guard bytes.count <= Self.maxTokenBytes else { throw JWTFailure.reject("token too large") }
        let segments = token.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw JWTFailure.reject("malformed token") }
        guard !segments[0].isEmpty, !segments[1].isEmpty,
            let headerBytes = LibCrypto.Base64URL.decode(String(segments[0])),
            let payloadBytes = LibCrypto.Base64URL.decode(String(segments[1])),
            let signature = LibCrypto.Base64URL.decode(String(segments[2]))
        else { throw JWTFailure.reject("malformed token") }

        guard let header = try? JSONValue.parse(headerBytes), header.isObject else {
            throw JWTFailure.reject("malformed token header")
        }
        guard let algName = header["alg"]?.stringValue, let algorithm = JWTAlgorithm(rawValue: algName) else {
            throw JWTFailure.reject("unsupported token algorithm")
        }
        // RFC 7515 §4.1.11: extensions we do not understand must make the token invalid; we understand none.
        guard header["crit"] == nil else { throw JWTFailure.reject("unsupported critical header") }
        var keyID: String?
        if let kid = header["kid"] {
            guard let text = kid.stringValue, !text.isEmpty, text.utf8.count <= Self.maxKeyIDBytes else {
                throw JWTFailure.reject("malformed token header")
            }
            keyID = text
        }
        guard !signature.isEmpty else { throw JWTFailure.reject("missing signature") }
        guard let claims = try? JSONValue.parse(payloadBytes), claims.isObject else {
            throw JWTFailure.reject("malformed token claims")
        }

        self.algorithm = algorithm
        self.keyID = keyID
        self.claims = claims
        self.signingInput = Array(segments[0].utf8) + [UInt8(ascii: ".")] + Array(segments[1].utf8)
        self.signature = signature
    }
}

/// Builds the `VerifyError(.unauthenticated)` every token failure becomes.
enum JWTFailure {
    /// `VerifyError(.unauthenticated, reason)`; `reason` must be a fixed phrase, never token content.
    static func reject(_ reason: String) -> VerifyError { VerifyError(.unauthenticated, reason) }
}
