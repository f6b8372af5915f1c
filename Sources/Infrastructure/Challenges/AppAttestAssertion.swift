import CBOR
import LibCrypto
import VerifyCore

/// One App Attest assertion, `{signature: bytes, authenticatorData: bytes}` in CBOR, checked
/// against an attested key (Apple, "Validating apps that connect to your server", assertion
/// steps 1–5; the counter is advanced by the caller, atomically in the store).
struct AppAttestAssertion: Sendable {
    let signature: [UInt8]
    let authenticatorData: [UInt8]

    static let decoder = CBORDecoder(maxDepth: 4, maxItems: 16)

    /// Parses the CBOR; `invalid_request` (field `challenge.token`) when it is not an assertion.
    init(cbor: [UInt8]) throws {
        let value: CBORValue
        do {
            value = try Self.decoder.decode(cbor)
        } catch {
            throw ChallengeVendorError.malformed("token", "is not a CBOR App Attest assertion (\(error))")
        }
        guard let signature = value["signature"]?.bytesValue, let authenticatorData = value["authenticatorData"]?.bytesValue else {
            throw ChallengeVendorError.malformed("token", "is not an App Attest assertion (signature and authenticatorData)")
        }
        self.signature = signature
        self.authenticatorData = authenticatorData
    }

    /// The assertion's counter when it is `key`'s signature over SHA256(authenticatorData ‖
    /// SHA256(clientData)) and names the key's app. The device signs that nonce with ECDSA
    /// P-256 over its SHA-256 (X9.62, SHA-256), so the check is ECDSA-SHA256 of the nonce.
    func verify(clientData: [UInt8], key: AttestedKey) throws -> UInt32 {
        guard let authData = AuthenticatorData(authenticatorData, withCredential: false) else {
            throw ChallengeVendorError.failed("app_attest", "the authenticator data is malformed")
        }
        let nonce = Digest.sha256(authenticatorData + Digest.sha256(clientData))
        guard let publicKey = try? VerifyingKey(subjectPublicKeyInfo: key.publicKey),
            publicKey.verify(derSignature: signature, message: nonce)
        else { throw ChallengeVendorError.failed("app_attest", "the assertion signature does not verify") }
        guard ConstantTime.equals(authData.rpIDHash, Digest.sha256(Array(key.appID.utf8))) else {
            throw ChallengeVendorError.failed("app_attest", "the assertion names another app")
        }
        return authData.counter
    }
}
