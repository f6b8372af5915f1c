import Foundation
import VerifyCore

/// The registered and session claims of a token payload, type-checked and validated against
/// time, issuer and audience (RFC 7519 §4.1, RFC 8176 `amr`, OIDC `auth_time`/`acr`/`sid`).
public struct JWTClaims: Sendable, Equatable {
    static let maxSubjectBytes = 256
    static let maxSessionIDBytes = 256
    static let maxMethods = 32
    static let maxMethodBytes = 64
    static let maxACRBytes = 256

    let issuer: String?
    let subject: String
    let sessionID: String?
    let authenticationMethods: [String]
    let authTime: Date?
    let acr: String?
    /// `exp`.
    let expiresAt: Date

    /// What a payload must satisfy.
    struct Expectations: Sendable {
        /// Required `iss`; nil accepts any (or none).
        var issuer: String?
        /// A value `aud` must contain; nil accepts any (or none).
        var audience: String?
        var leewaySeconds: Int
    }

    /// Validates `payload` (a JSON object) at `now`.
    /// - Throws: `VerifyError(.unauthenticated)` with a short reason.
    init(payload: JSONValue, expecting expected: Expectations, now: Date) throws {
        let now = now.timeIntervalSince1970
        let leeway = TimeInterval(expected.leewaySeconds)

        // Time: RFC 7519 §4.1.4–4.1.6, with leeway for clock skew.
        guard let expValue = payload["exp"] else { throw JWTFailure.reject("token has no expiry") }
        guard let exp = Self.numericDate(expValue) else { throw JWTFailure.reject("malformed token claims") }
        guard now < exp + leeway else { throw JWTFailure.reject("token expired") }
        if let value = payload["nbf"] {
            guard let nbf = Self.numericDate(value) else { throw JWTFailure.reject("malformed token claims") }
            guard now >= nbf - leeway else { throw JWTFailure.reject("token not yet valid") }
        }
        if let value = payload["iat"] {
            guard let iat = Self.numericDate(value) else { throw JWTFailure.reject("malformed token claims") }
            guard iat <= now + leeway else { throw JWTFailure.reject("token issued in the future") }
        }

        // Issuer and audience.
        let issuer = try Self.optionalString(payload["iss"], maxBytes: 1024)
        if let wanted = expected.issuer, issuer != wanted { throw JWTFailure.reject("wrong token issuer") }
        let audiences: [String]
        switch payload["aud"] {
        case nil:
            audiences = []
        case .string(let single)?:
            audiences = [single]
        case .array(let items)?:
            audiences = try items.map {
                guard let text = $0.stringValue else { throw JWTFailure.reject("malformed token claims") }
                return text
            }
        default:
            throw JWTFailure.reject("malformed token claims")
        }
        if let wanted = expected.audience, !audiences.contains(wanted) {
            throw JWTFailure.reject("wrong token audience")
        }

        // The session.
        guard let subject = try Self.optionalString(payload["sub"], maxBytes: Self.maxSubjectBytes),
            !subject.isEmpty
        else { throw JWTFailure.reject("token has no subject") }
        let sessionID = try Self.optionalString(payload["sid"], maxBytes: Self.maxSessionIDBytes)
        var methods: [String] = []
        if let value = payload["amr"] {
            guard let items = value.arrayValue, items.count <= Self.maxMethods else {
                throw JWTFailure.reject("malformed token claims")
            }
            methods = try items.map {
                guard let text = $0.stringValue, !text.isEmpty, text.utf8.count <= Self.maxMethodBytes,
                    Self.isPrintable(text)
                else { throw JWTFailure.reject("malformed token claims") }
                return text
            }
        }
        var authTime: Date?
        if let value = payload["auth_time"] {
            guard let seconds = Self.numericDate(value) else { throw JWTFailure.reject("malformed token claims") }
            authTime = Date(timeIntervalSince1970: seconds)
        }
        let acr = try Self.optionalString(payload["acr"], maxBytes: Self.maxACRBytes)

        self.issuer = issuer
        self.subject = subject
        self.sessionID = sessionID
        self.authenticationMethods = methods
        self.authTime = authTime
        self.acr = acr
        self.expiresAt = Date(timeIntervalSince1970: exp)
    }

    /// A NumericDate (RFC 7519 §2): a JSON number, integer or not, in a sane range.
    public static func numericDate(_ value: JSONValue) -> TimeInterval? {
        let seconds: Double
        switch value {
        case .int(let int): seconds = Double(int)
        case .double(let double): seconds = double
        default: return nil
        }
        // Year ~5138 at most; rejects NaN, infinities and absurd magnitudes.
        guard seconds.isFinite, abs(seconds) < 1e11 else { return nil }
        return seconds
    }

    /// nil when absent; a string of at most `maxBytes` printable characters when present.
    private static func optionalString(_ value: JSONValue?, maxBytes: Int) throws -> String? {
        guard let value else { return nil }
        guard let text = value.stringValue, text.utf8.count <= maxBytes, isPrintable(text) else {
            throw JWTFailure.reject("malformed token claims")
        }
        return text
    }

    /// No control characters (these values end up in logs, headers and database rows).
    private static func isPrintable(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }
    }
}
