import LibCrypto
import Foundation
import VerifyCore

/// One usable public key from a JWK set.
struct JWKSKey: Sendable {
    /// The JWK's `kid`; a key without one only verifies tokens without `kid`.
    let keyID: String?
    /// The JWK's `alg`, if it declares one (then it must equal the token header's `alg`).
    let declaredAlgorithm: String?
    let key: VerifyingKey

    /// Whether this key may verify a token whose header has `kid` and `alg`.
    func matches(keyID wanted: String?, algorithm: SigningAlgorithm) -> Bool {
        keyID == wanted && key.algorithm == algorithm
            && (declaredAlgorithm == nil || declaredAlgorithm == algorithm.rawValue)
    }
}

/// Parsing of RFC 7517 JWK sets (`{"keys": [...]}`) into verifying keys.
enum JWKSDocument {
    /// At most this many keys are kept from one set; the rest are ignored.
    static let maxKeys = 100
    /// Largest JWKS document read from a file.
    static let maxDocumentBytes = 1 << 20

    /// The usable keys of a JWKS document, or nil when it is not a JSON object with a `keys` array.
    /// Keys that cannot be used are skipped silently: unknown `kty`/`crv`, bad members, `use` other
    /// than "sig", `key_ops` without "verify", an `alg` that does not fit the key, non-string `kid`.
    static func parse(_ bytes: [UInt8]) -> [JWKSKey]? {
        guard bytes.count <= maxDocumentBytes, let document = try? JSONValue.parse(bytes),
            document.isObject, let entries = document["keys"]?.arrayValue
        else { return nil }
        return keys(from: entries.compactMap(stringMembers))
    }

    /// The usable keys among JWKs given as string members (other members already dropped).
    static func keys(from jwks: [[String: String]]) -> [JWKSKey] {
        var keys: [JWKSKey] = []
        for jwk in jwks {
            guard keys.count < maxKeys else { break }
            if let key = usableKey(jwk) { keys.append(key) }
        }
        return keys
    }

    /// A JWK object's string-valued members, or nil when the entry is unusable as a whole.
    private static func stringMembers(_ entry: JSONValue) -> [String: String]? {
        guard case .object(let members) = entry else { return nil }
        var fields: [String: String] = [:]
        for member in members {
            switch (member.key, member.value) {
            case ("key_ops", .array(let operations)):
                // RFC 7517 §4.3: when present, the key is usable only for the operations listed.
                if !operations.contains(.string("verify")) { return nil }
            case ("key_ops", _):
                return nil
            case (_, .string(let text)):
                fields[member.key] = text
            case ("kid", _), ("alg", _), ("use", _), ("kty", _), ("crv", _):
                return nil  // these must be strings when present
            default:
                continue  // x5c, x5t, … are not used
            }
        }
        return fields
    }

    private static func usableKey(_ jwk: [String: String]) -> JWKSKey? {
        if let use = jwk["use"], use != "sig" { return nil }
        if let kid = jwk["kid"], kid.isEmpty || kid.utf8.count > JWTParts.maxKeyIDBytes { return nil }
        // Only the public members: a published private key is still only used to verify.
        var publicJWK = jwk
        for privateMember in ["d", "p", "q", "dp", "dq", "qi", "oth", "k"] { publicJWK[privateMember] = nil }
        guard jwk["kty"] != "oct", let key = try? VerifyingKey(jwk: publicJWK) else { return nil }
        if let alg = jwk["alg"], alg != key.algorithm.rawValue { return nil }
        return JWKSKey(keyID: jwk["kid"], declaredAlgorithm: jwk["alg"], key: key)
    }
}
