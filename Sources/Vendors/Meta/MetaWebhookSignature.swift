import Gateways
import Foundation
import LibCrypto
import VerifyCore

/// Meta's webhook signature: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body,
/// keyed with the app secret>`. Check the exact bytes received, before any JSON parsing.
public enum MetaWebhookSignature {
    public static let headerName = "X-Hub-Signature-256"

    /// `sha256=` + lower-case hex of the HMAC.
    public static func compute(body: [UInt8], appSecret: String) -> String {
        "sha256=" + Hex.encode(HMAC.sha256(key: Array(appSecret.utf8), data: body))
    }

    /// Whether `header` (the `X-Hub-Signature-256` value) signs `body`; constant-time over the
    /// digest. The `sha256=` prefix is required; hex digits may be either case. An empty app
    /// secret never verifies.
    public static func verify(body: [UInt8], header: String?, appSecret: String) -> Bool {
        guard !appSecret.isEmpty, let header = header?.trimmingCharacters(in: .whitespaces) else { return false }
        let prefix = "sha256="
        guard header.count == prefix.count + 64, header.lowercased().hasPrefix(prefix) else { return false }
        let presented = Array(header.dropFirst(prefix.count).lowercased().utf8)
        let expected = Array(Hex.encode(HMAC.sha256(key: Array(appSecret.utf8), data: body)).utf8)
        return ConstantTime.equals(presented, expected)
    }

    /// The subscription handshake (`GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`):
    /// the challenge to echo when the mode and the token match, otherwise nil (answer 403).
    public static func challenge(mode: String?, token: String?, challenge: String?, verifyToken: String) -> String? {
        guard mode == "subscribe", let token, let challenge, !verifyToken.isEmpty,
            ConstantTime.equals(Array(token.utf8), Array(verifyToken.utf8))
        else { return nil }
        return challenge
    }
}
