import CBOR
import Encoding
import Foundation
import LibCrypto
import VerifyCore

/// Apple's attestation checks ("Validating apps that connect to your server", steps 1–9) for
/// one attestation object, pure: no nonce bookkeeping, no store. Everything refused is a
/// `VerifyError`: `invalid_request` for bytes that are not an attestation object at all,
/// `challenge_failed` for one that was checked and is not acceptable.
struct AppAttestAttestation: Sendable {
    /// `TEAMID.bundle.id` values whose keys are accepted.
    let appIDs: [String]
    let environment: AppAttestEnvironment
    /// The trust anchor: Apple's App Attestation Root CA (another one only in tests).
    let root: X509Certificate

    /// The nonce extension of the credential certificate.
    static let nonceOID = "1.2.840.113635.100.8.2"
    static let decoder = CBORDecoder(maxDepth: 8, maxItems: 64)

    /// What passed: the key to store.
    struct Verified: Sendable, Equatable {
        let appID: String
        /// DER SubjectPublicKeyInfo of the credential key.
        let publicKey: [UInt8]
    }

    /// Verifies `object` (the CBOR attestation) for the key `keyID` (32 bytes) and the client
    /// data hash the app passed to `attestKey`, at `time` (the chain's validity is checked then).
    func verify(_ object: [UInt8], keyID: [UInt8], clientDataHash: [UInt8], at time: Date) throws -> Verified {
        try verify(Self.parse(object), keyID: keyID, clientDataHash: clientDataHash, at: time)
    }

    /// The same for an object already parsed (malformed input is refused before anything else).
    func verify(_ parsed: Parsed, keyID: [UInt8], clientDataHash: [UInt8], at time: Date) throws -> Verified {
        let (x5c, authDataBytes) = (parsed.x5c, parsed.authData)
        // Step 1: the chain, leaf (credCert) first, to Apple's root.
        let credential: X509Certificate
        do {
            let certificates = try x5c.map { try X509Certificate(der: $0) }
            guard let leaf = certificates.first else { throw CryptoError.invalidCertificate("no certificate") }
            try X509Certificate.verifyChain(leaf: leaf, intermediates: Array(certificates.dropFirst()), root: root, at: time)
            credential = leaf
        } catch {
            throw Self.failed("the certificate chain does not verify to Apple's App Attest root")
        }
        // Steps 2–4: nonce = SHA256(authData ‖ clientDataHash) is the credCert's extension value.
        let nonce = Digest.sha256(authDataBytes + clientDataHash)
        guard let value = try? credential.extensionValue(oid: Self.nonceOID), let certified = DERReader.appAttestNonce(value),
            ConstantTime.equals(certified, nonce)
        else { throw Self.failed("the attestation is not for this challenge") }
        // Step 5: the key id is SHA256 of the credential public key (uncompressed point).
        guard let key = try? credential.publicKey(), let point = try? key.uncompressedPoint(), let spki = try? key.subjectPublicKeyInfo(),
            ConstantTime.equals(Digest.sha256(point), keyID)
        else { throw Self.failed("the attestation is for another key") }
        guard let authData = AuthenticatorData(authDataBytes, withCredential: true), let aaguid = authData.aaguid, let credentialID = authData.credentialID
        else { throw Self.failed("the authenticator data is malformed") }
        // Step 6: the RP ID hash is SHA256 of one of the configured app ids.
        guard let appID = appIDs.first(where: { ConstantTime.equals(Digest.sha256(Array($0.utf8)), authData.rpIDHash) })
        else { throw Self.failed("the key belongs to another app") }
        // Step 7: a new key has signed nothing yet.
        guard authData.counter == 0 else { throw Self.failed("the attestation counter is not zero") }
        // Step 8: the environment.
        guard aaguid == environment.aaguid else {
            throw Self.failed("the key is not from the App Attest \(environment.rawValue) environment")
        }
        // Step 9: the credential id is the key id.
        guard ConstantTime.equals(credentialID, keyID) else { throw Self.failed("the credential id is not the key id") }
        return Verified(appID: appID, publicKey: spki)
    }

    /// `{fmt: "apple-appattest", attStmt: {x5c: [bytes…], receipt: bytes}, authData: bytes}`;
    /// the certificates (2–4) and the authenticator data.
    struct Parsed: Sendable {
        let x5c: [[UInt8]]
        let authData: [UInt8]
    }

    static func parse(_ object: [UInt8]) throws -> Parsed {
        let value: CBORValue
        do {
            value = try decoder.decode(object)
        } catch {
            throw malformed("is not a CBOR attestation object (\(error))")
        }
        guard case .map = value, let format = value["fmt"]?.textValue else { throw malformed("is not an attestation object (a map with fmt)") }
        guard format == "apple-appattest" else { throw failed("the attestation format is not apple-appattest") }
        guard let statement = value["attStmt"], let chain = statement["x5c"]?.arrayValue, (2...4).contains(chain.count),
            let authData = value["authData"]?.bytesValue
        else { throw malformed("lacks attStmt.x5c (2 to 4 certificates) or authData") }
        let x5c = chain.compactMap(\.bytesValue)
        guard x5c.count == chain.count else { throw malformed("has an x5c entry that is not a byte string") }
        return Parsed(x5c: x5c, authData: authData)
    }

    static func failed(_ reason: String) -> VerifyError { ChallengeVendorError.failed("app_attest", reason) }

    static func malformed(_ problem: String) -> VerifyError {
        VerifyError(.invalidRequest, "attestation " + problem, details: ["field": .string("attestation")])
    }
}
