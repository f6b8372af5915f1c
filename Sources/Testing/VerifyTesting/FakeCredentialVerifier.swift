import Foundation
import VerifyCore

/// Accepts the tokens `FakeSigner` signs (signature "signature") until their `exp`, by `clock`.
/// For API and domain tests; the real check (keys, issuer, audience) is `OwnCredentialVerifier`.
public struct FakeCredentialVerifier: CredentialVerifier {
    let clock: any Clock

    public init(clock: any Clock) {
        self.clock = clock
    }

    public func verify(_ token: String) throws -> VerifiedCredential {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, Base64URL.decode(String(parts[2])) == Array("signature".utf8),
            let payload = Base64URL.decode(String(parts[1])), let claims = try? JSONValue.parse(payload),
            let jti = claims["jti"]?.stringValue, let exp = claims["exp"]?.intValue
        else { throw VerifyError(.unauthenticated, "malformed token") }
        let expiresAt = Date(timeIntervalSince1970: TimeInterval(exp))
        guard clock.now() < expiresAt else { throw VerifyError(.unauthenticated, "token expired") }
        return VerifiedCredential(jti: jti, expiresAt: expiresAt, claims: claims)
    }
}
