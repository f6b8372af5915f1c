import Foundation
import VerifyCore

/// Splits a compact JWS and decodes its header and claims (no signature check: domain tests).
enum JWTParts {
    struct Malformed: Error {}

    static func header(_ token: String) throws -> JSONValue { try part(token, 0) }
    static func claims(_ token: String) throws -> JSONValue { try part(token, 1) }

    static func part(_ token: String, _ index: Int) throws -> JSONValue {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(String(parts[index])) else { throw Malformed() }
        return try JSONValue.parse(bytes)
    }
}
