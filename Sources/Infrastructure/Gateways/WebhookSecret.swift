import Encoding
import Foundation

/// A Standard Webhooks secret as operators write it: `whsec_` + the key in base64, or any other
/// string, whose UTF-8 bytes are the key. Parsed here only, so the configuration's check, the
/// production key-length rule and the gateway's signing agree on what the key is.
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
}
