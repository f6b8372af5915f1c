import Foundation
import VerifyCore

/// The claims of a grant (docs/CHALLENGES.md, "grant"), checked against the configuration and
/// the request. Every failure is a fixed reason that never quotes the token.
struct GrantClaims: Sendable, Equatable {
    static let maxJTIBytes = 256

    let issuer: String
    let jti: String
    let expiresAt: Date

    struct Expectations: Sendable {
        var issuer: String
        var audience: String
        var maxLifetimeSeconds: Int
        var leewaySeconds: Int
    }

    /// - Throws: the reason, as `GrantVerifier.failed`.
    init(payload: JSONValue, expecting expected: Expectations, context: ChallengeContext) throws {
        let now = context.now.timeIntervalSince1970
        let leeway = TimeInterval(expected.leewaySeconds)
        guard let exp = payload["exp"].flatMap(JWTClaims.numericDate) else { throw GrantVerifier.failed("the grant has no valid exp") }
        guard let iat = payload["iat"].flatMap(JWTClaims.numericDate) else { throw GrantVerifier.failed("the grant has no valid iat") }
        guard exp > iat, exp - iat <= TimeInterval(expected.maxLifetimeSeconds) else {
            throw GrantVerifier.failed("the grant lives longer than \(expected.maxLifetimeSeconds) seconds")
        }
        guard now < exp + leeway else { throw GrantVerifier.failed("the grant has expired") }
        guard iat <= now + leeway else { throw GrantVerifier.failed("the grant is issued in the future") }
        if let value = payload["nbf"] {
            guard let nbf = JWTClaims.numericDate(value), now >= nbf - leeway else { throw GrantVerifier.failed("the grant is not valid yet") }
        }

        guard payload["iss"]?.stringValue == expected.issuer else { throw GrantVerifier.failed("the grant has the wrong issuer") }
        let audiences: [String]
        switch payload["aud"] {
        case .string(let single)?: audiences = [single]
        case .array(let items)?: audiences = items.compactMap(\.stringValue)
        default: audiences = []
        }
        guard audiences.contains(expected.audience) else { throw GrantVerifier.failed("the grant has the wrong audience") }

        guard let phone = payload["phone_number"]?.stringValue else { throw GrantVerifier.failed("the grant names no phone number") }
        guard phone == context.phoneNumber else { throw GrantVerifier.failed("the grant names another phone number") }
        if let action = payload["action"] {
            guard action.stringValue == context.action else { throw GrantVerifier.failed("the grant is for another action") }
        }
        guard let jti = payload["jti"]?.stringValue, !jti.isEmpty, jti.utf8.count <= Self.maxJTIBytes,
            !jti.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { throw GrantVerifier.failed("the grant has no valid jti") }

        self.issuer = expected.issuer
        self.jti = jti
        self.expiresAt = Date(timeIntervalSince1970: exp)
    }
}
