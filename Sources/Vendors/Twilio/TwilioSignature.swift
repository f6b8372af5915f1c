import Gateways
import Encoding
import LibCrypto
import Foundation

/// Twilio's request signature: base64(HMAC-SHA1(auth token, full URL + each POST field's name
/// and value, sorted by name)), sent as `X-Twilio-Signature`.
public enum TwilioSignature {
    public static func compute(authToken: String, url: String, fields: [(String, String)]) -> String {
        var data = url
        for (name, value) in fields.sorted(by: { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }) {
            data += name + value
        }
        return Base64.encode(HMAC.sha1(key: Array(authToken.utf8), data: Array(data.utf8)))
    }

    /// Constant-time check of a presented signature.
    public static func isValid(authToken: String, url: String, fields: [(String, String)], signature: String) -> Bool {
        ConstantTime.equals(Array(compute(authToken: authToken, url: url, fields: fields).utf8), Array(signature.utf8))
    }
}
