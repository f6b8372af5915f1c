import CBOR
import Encoding
import Foundation
import LibCrypto
import VerifyCore

/// An App Attest key made in the test with LibCrypto (P-256), whose assertions are built the
/// way a device builds them: authenticatorData = SHA256(app id) ‖ flags ‖ counter, and an
/// ECDSA-SHA256 DER signature over SHA256(authenticatorData ‖ SHA256(clientData)).
struct SyntheticDevice {
    let key: SigningKey
    let appID: String
    let keyID: String
    let publicKey: [UInt8]

    init(appID: String = "ABCDE12345.com.example.app") throws {
        key = try SigningKey.generate(.es256)
        self.appID = appID
        let verifying = try key.verifyingKey()
        publicKey = try verifying.subjectPublicKeyInfo()
        keyID = Base64.encode(Digest.sha256(try verifying.uncompressedPoint()))
    }

    func attestedKey(environment: String = "production", counter: Int64 = 0) -> AttestedKey {
        AttestedKey(
            keyID: keyID, appID: appID, publicKey: publicKey, counter: counter, environment: environment,
            createdAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    /// The client data JSON bytes of the documented shape.
    static func clientData(challenge: String, binding: String) -> [UInt8] {
        Array("{\"challenge\":\"\(challenge)\",\"binding\":\"\(binding)\"}".utf8)
    }

    /// Base64 of the CBOR assertion over `clientData`.
    func assertion(counter: UInt32, clientData: [UInt8], rpID: String? = nil, signWith other: SigningKey? = nil) throws -> String {
        let authenticatorData = Digest.sha256(Array((rpID ?? appID).utf8)) + [0x00] + CBOREncoding.bigEndian(UInt64(counter), 4)
        let nonce = Digest.sha256(authenticatorData + Digest.sha256(clientData))
        let raw = try (other ?? key).sign(nonce)
        let signature = ECDSASignature.der(fromRaw: raw) ?? []
        return Base64.encode(CBOREncoding.encode(CBOREncoding.map([
            ("signature", .bytes(signature)), ("authenticatorData", .bytes(authenticatorData)),
        ])))
    }

    /// A challenge submission for `context`.
    func submission(token: String, clientData: [UInt8]) -> ChallengeSubmission {
        ChallengeSubmission(provider: "app_attest", token: token, fields: ["key_id": keyID, "client_data": Base64URL.encode(clientData)])
    }
}
