import Gateways
import Foundation
import Credentials
import LibCrypto
import VerifyCore

/// Vonage's signed webhooks (Messages API status, Voice API events): `Authorization: Bearer
/// <JWT>`, HS256 with the account's signature secret, claims `iat` and `payload_hash` (hex
/// SHA-256 of the body). The raw body is checked against `payload_hash`, so a token seen once
/// cannot carry another status; `iat` must be recent, so it cannot be replayed for long.
public enum VonageWebhookSignature {
    /// Seconds a signed webhook stays acceptable after its `iat` (Vonage's tokens last 5 minutes).
    public static let maxAge: TimeInterval = 300
    /// Clock skew allowed for an `iat` in the future.
    public static let leeway: TimeInterval = 60

    /// Whether `authorization` (the header's value) is a valid signature of `body` at `now`.
    /// Malformed, unsigned (`alg` other than HS256), mis-signed, stale or body-mismatched
    /// tokens are all refused; an empty secret never verifies.
    public static func verify(authorization: String?, body: [UInt8], secret: String, now: Date) -> Bool {
        guard !secret.isEmpty, let header = authorization?.trimmingCharacters(in: .whitespaces) else { return false }
        let scheme = "bearer "
        guard header.count > scheme.count, header.prefix(scheme.count).lowercased() == scheme else { return false }
        guard let parts = try? JWTParts(compact: String(header.dropFirst(scheme.count))), parts.algorithm == .hs256 else { return false }
        let expected = HMAC.sha256(key: Array(secret.utf8), data: parts.signingInput)
        guard ConstantTime.equals(expected, parts.signature) else { return false }
        guard let iat = parts.claims["iat"].flatMap(JWTClaims.numericDate) else { return false }
        let age = now.timeIntervalSince1970 - iat
        guard age <= maxAge, age >= -leeway else { return false }
        guard let hash = parts.claims["payload_hash"]?.stringValue?.lowercased() else { return false }
        return ConstantTime.equals(Array(hash.utf8), Array(Hex.encode(Digest.sha256(body)).utf8))
    }

}
