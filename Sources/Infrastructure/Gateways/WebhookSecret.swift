import Encoding
import Foundation
import LibCrypto

/// A Standard Webhooks secret as operators write it: `whsec_` + the key in base64, or any other
/// string, whose UTF-8 bytes are the key. Parsed here only, so the configuration's check, the
/// production key-length rule and the signing (the webhook gateway's, the events sender's) agree
/// on what the key is.
public struct WebhookSecret: Sendable, Equatable {
    public static let prefix = "whsec_"

    public let text: String
    /// The HMAC key; nil when `whsec_` is followed by something that is not base64.
    public let key: [UInt8]?

    public init(_ text: String) {
        self.text = text
        if text.hasPrefix(Self.prefix) {
            key = Base64.decode(String(text.dropFirst(Self.prefix.count)))
        } else {
            key = Array(text.utf8)
        }
    }

    /// A Standard Webhooks signature: `v1,` + base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}")).
    public static func signature(key: [UInt8], id: String, timestamp: String, body: [UInt8]) -> String {
        let signed = Array("\(id).\(timestamp).".utf8) + body
        return "v1," + Base64.encode(HMAC.sha256(key: key, data: signed))
    }
}
