import Encoding
import VerifyCore

/// The client data an app signs with each assertion: `{"challenge": "<server nonce>",
/// "binding": "<ChallengeContext.binding>"}` as UTF-8 JSON, sent base64url (no padding) in
/// `challenge.client_data`. The assertion signs these exact bytes (through their SHA-256), so
/// the service checks the bytes it was sent, then reads the two members out of them.
struct AppAttestClientData: Sendable {
    let bytes: [UInt8]
    let challenge: String
    let binding: String

    /// `invalid_request` (field `challenge.client_data`) when it is not such an object.
    init(base64url text: String) throws {
        guard let bytes = Base64URL.decode(text) else {
            throw ChallengeVendorError.malformed("client_data", "must be base64url (no padding)")
        }
        guard let json = try? JSONValue.parse(bytes), let challenge = json["challenge"]?.stringValue,
            let binding = json["binding"]?.stringValue
        else {
            throw ChallengeVendorError.malformed("client_data", "must encode a JSON object with string members challenge and binding")
        }
        self.bytes = bytes
        self.challenge = challenge
        self.binding = binding
    }
}
