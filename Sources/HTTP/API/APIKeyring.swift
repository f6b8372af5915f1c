import HTTPMessages
import VerifyCore

/// What a server-to-server API key may do. One key per job keeps a leaked key's damage to its
/// job: the auth server's introspection key cannot delete users' factors or lift the fraud guard.
public enum APIScope: String, Sendable, CaseIterable, Comparable {
    /// `POST /v1/credentials/introspect`: introspect and redeem credentials.
    case introspect
    /// The admin routes of users' factors (list and delete).
    case factors
    /// The fraud guard's admin routes (list, allow, block, clear).
    case fraud
    /// The lockout admin routes.
    case lockouts
    /// `GET /metrics` in production, and `/readyz`'s reasons.
    case metrics
    /// The GET listings of fraud keys, factors and lockouts, and `/readyz`'s reasons.
    case read

    public static func < (a: APIScope, b: APIScope) -> Bool { a.rawValue < b.rawValue }
}

/// The configured API keys and their scopes: `PHONE_VERIFY_ADMIN_API_KEYS` (every scope),
/// `PHONE_VERIFY_INTROSPECTION_API_KEYS` (`introspect`) and `PHONE_VERIFY_SCOPED_API_KEYS`.
/// A presented key is compared with every configured key, each in constant time, so timing
/// says neither whether nor which key matched.
public struct APIKeyring: Sendable {
    struct Entry: Sendable {
        let key: [UInt8]
        let scopes: Set<APIScope>
    }

    let entries: [Entry]
    /// Browser sessions accepted in place of a bearer key (the operator console); nil: none.
    public var sessions: (any APISessionResolver)?

    /// `scoped` pairs come from ``parseScoped(_:)``. The same key may appear in several lists:
    /// it gets the union of their scopes.
    public init(admin: [String] = [], introspection: [String] = [], scoped: [(scopes: Set<APIScope>, key: String)] = []) {
        entries = admin.map { Entry(key: Array($0.utf8), scopes: Set(APIScope.allCases)) }
            + introspection.map { Entry(key: Array($0.utf8), scopes: [.introspect]) }
            + scoped.map { Entry(key: Array($0.key.utf8), scopes: $0.scopes) }
    }

    /// Each configured key's `fingerprint` (a caller-chosen keyed hash) and its scopes (the union
    /// when a key is listed several times), so a session can name its key without holding it.
    public func fingerprints(_ fingerprint: ([UInt8]) -> String) -> [String: Set<APIScope>] {
        var result: [String: Set<APIScope>] = [:]
        for entry in entries { result[fingerprint(entry.key), default: []].formUnion(entry.scopes) }
        return result
    }

    /// Whether some configured key has `scope` (a route no key can call need not exist).
    public func hasKey(for scope: APIScope) -> Bool { entries.contains { $0.scopes.contains(scope) } }

    /// A `PHONE_VERIFY_SCOPED_API_KEYS` problem; names the entry by position, never its key.
    public struct SyntaxError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Parses `SCOPE[+SCOPE…]=KEY` entries separated by commas, e.g.
    /// `metrics=KEY1,factors+lockouts=KEY2`. Keys may contain `=` (base64), not `,`.
    public static func parseScoped(_ text: String, minimumKeyLength: Int = 16) throws -> [(scopes: Set<APIScope>, key: String)] {
        var parsed: [(scopes: Set<APIScope>, key: String)] = []
        for (index, item) in text.split(separator: ",").enumerated() {
            let entry = item.trimmingCharacters(in: .whitespaces)
            let position = "entry \(index + 1)"
            guard let equals = entry.firstIndex(of: "=") else {
                throw SyntaxError(description: "\(position) must be SCOPE[+SCOPE…]=KEY")
            }
            var scopes: Set<APIScope> = []
            for name in entry[..<equals].split(separator: "+", omittingEmptySubsequences: false) {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                guard let scope = APIScope(rawValue: trimmed) else {
                    throw SyntaxError(
                        // The unknown word is not quoted: a key written before its scopes would be.
                        description: "\(position) has an unknown scope (known: "
                            + APIScope.allCases.map(\.rawValue).joined(separator: ", ") + ")")
                }
                scopes.insert(scope)
            }
            let key = entry[entry.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard key.utf8.count >= minimumKeyLength else {
                throw SyntaxError(description: "\(position): keys must be at least \(minimumKeyLength) characters")
            }
            parsed.append((scopes, key))
        }
        return parsed
    }

    /// The scopes of `presented`; nil when no configured key matches.
    public func scopes(of presented: String) -> Set<APIScope>? {
        let bytes = Array(presented.utf8)
        var matched = false
        var scopes: Set<APIScope> = []
        for entry in entries where Self.same(entry.key, bytes) {  // every entry, no early exit
            matched = true
            scopes.formUnion(entry.scopes)
        }
        return matched ? scopes : nil
    }

    /// Passes when the request's bearer key has one of `anyOf`; otherwise throws 401
    /// `unauthenticated` (no key, or a key nobody configured) or 403 `forbidden` (a valid key
    /// outside its scopes).
    public func require(_ request: HTTPRequest, _ anyOf: APIScope...) throws {
        try require(request, anyOf: anyOf)
    }

    /// ``require(_:_:)`` with the scopes as an array (built once by ``ScopeMiddleware``).
    public func require(_ request: HTTPRequest, anyOf: [APIScope]) throws {
        guard let presented = Self.bearer(request) else {
            if let scopes = try sessions?.scopes(of: request) {
                guard !scopes.isDisjoint(with: anyOf) else { throw Self.forbidden(anyOf) }
                return
            }
            throw JSONResponse.noCredentials("an API key is required (Authorization: Bearer …)")
        }
        guard let scopes = scopes(of: presented) else {
            throw VerifyError(.unauthenticated, "an API key is required (Authorization: Bearer …)")
        }
        guard !scopes.isDisjoint(with: anyOf) else { throw Self.forbidden(anyOf) }
    }

    /// Whether the request's bearer key has one of `anyOf` (no key: false).
    public func allows(_ request: HTTPRequest, _ anyOf: APIScope...) -> Bool {
        guard let presented = Self.bearer(request) else {
            guard let scopes = try? sessions?.scopes(of: request) else { return false }
            return !scopes.isDisjoint(with: anyOf)
        }
        guard let scopes = scopes(of: presented) else { return false }
        return !scopes.isDisjoint(with: anyOf)
    }

    static func forbidden(_ needed: [APIScope]) -> VerifyError {
        let names = needed.sorted().map(\.rawValue)
        return VerifyError(
            .forbidden, "this API key lacks the scope this route needs: \(names.joined(separator: " or "))",
            details: ["required_scopes": .array(names.map { .string($0) })])
    }

    /// The key of `Authorization: Bearer KEY` (nil: the request carries no key, whatever other
    /// `Authorization` it has; features use the same rule to tell a key from a session).
    public static func bearer(_ request: HTTPRequest) -> String? {
        guard let header = request.headers["Authorization"], header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            return nil
        }
        return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    /// Byte equality in time that depends on the lengths only, never on where bytes differ
    /// (also the console's sessions and CSRF tokens).
    public static func same(_ key: [UInt8], _ presented: [UInt8]) -> Bool {
        var difference: UInt8 = key.count == presented.count ? 0 : 1
        for i in key.indices { difference |= key[i] ^ (i < presented.count ? presented[i] : 0) }
        return difference == 0
    }
}

/// Turns a request's browser session (a cookie) into the scopes of the key that signed in, for
/// the admin routes (``APIKeyring/require(_:_:)``). Nil: the request carries no session. Throws
/// 401 for an expired or forged session and 403 for a state-changing request without its CSRF
/// token, so a session alone never changes anything.
public protocol APISessionResolver: Sendable {
    func scopes(of request: HTTPRequest) throws -> Set<APIScope>?
}
