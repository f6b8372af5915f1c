import Encoding
import Foundation
import LibCrypto
import VerifyCore

/// The `app_attest` provider (Apple App Attest, docs/CHALLENGES.md): server nonces, one
/// attestation per key (`AppAttestRegistry`), and an assertion per start or resend
/// (`ChallengeVerifier`). Verified with OpenSSL against Apple's root; Apple's servers are never
/// called.
public struct AppAttestVerifier: ChallengeVerifier, AppAttestRegistry {
    public let provider = "app_attest"
    let attestation: AppAttestAttestation
    let ledger: any ChallengeLedger
    let nonces: any AppAttestNonceChecking

    /// Decoded sizes accepted: an attestation object (a receipt and two certificates are ~5 KiB)
    /// and an assertion (~150 bytes).
    static let maxAttestationBytes = 8 * 1024
    static let maxAssertionBytes = 1024
    /// Every other member (key id, nonce, client data).
    static let maxFieldLength = 256

    /// `trustAnchorPEM` replaces Apple's App Attestation Root CA: for tests only, never set by
    /// the application.
    public init(
        appIDs: [String], environment: AppAttestEnvironment, ledger: any ChallengeLedger, nonceKey: [UInt8], random: any RandomSource,
        trustAnchorPEM: String? = nil
    ) throws {
        self.init(
            attestation: AppAttestAttestation(
                appIDs: appIDs, environment: environment, root: try X509Certificate(pem: trustAnchorPEM ?? AppleAppAttestRoot.pem)),
            ledger: ledger, nonces: AppAttestNonces(key: nonceKey, random: random))
    }

    init(attestation: AppAttestAttestation, ledger: any ChallengeLedger, nonces: any AppAttestNonceChecking) {
        self.attestation = attestation
        self.ledger = ledger
        self.nonces = nonces
    }

    public var publicParameters: [String: String] {
        ["challenge_path": "/v1/app-attest/challenge", "attestation_path": "/v1/app-attest/attestations"]
    }

    // MARK: Registry

    public func issueChallenge(now: Date) throws -> AppAttestChallenge {
        nonces.issue(now: now)
    }

    public func register(_ registration: AppAttestRegistration, now: Date) throws -> AttestedKey {
        try Self.bound(registration.keyID, Self.maxFieldLength, field: "key_id")
        try Self.bound(registration.challenge, Self.maxFieldLength, field: "challenge")
        try Self.bound(registration.attestation, Self.base64Length(Self.maxAttestationBytes), field: "attestation")
        let keyID = try Self.keyID(registration.keyID, field: "key_id")
        guard let object = Self.base64(registration.attestation) else {
            throw VerifyError(.invalidRequest, "attestation must be base64", details: ["field": .string("attestation")])
        }
        let parsed = try AppAttestAttestation.parse(object)
        guard let expiresAt = nonces.validate(registration.challenge, now: now) else {
            throw ChallengeVendorError.failed(provider, "the challenge is not one this service issued, or it expired")
        }
        let verified = try attestation.verify(parsed, keyID: keyID, clientDataHash: Digest.sha256(Array(registration.challenge.utf8)), at: now)
        guard try ledger.consumeOnce(key: provider + "|" + Self.replayKey(registration.challenge), expiresAt: expiresAt, now: now) else {
            throw ChallengeVendorError.failed(provider, "the challenge was already used")
        }
        let key = AttestedKey(
            keyID: Base64.encode(keyID), appID: verified.appID, publicKey: verified.publicKey, counter: 0,
            environment: attestation.environment.rawValue, createdAt: now)
        guard try ledger.insertAttestedKey(key) else {
            throw ChallengeVendorError.failed(provider, "the key is already attested; use it, or generate a new key")
        }
        return key
    }

    // MARK: Assertions

    public func verify(_ submission: ChallengeSubmission, context: ChallengeContext) throws -> ChallengeProof {
        try Self.bound(submission.token, Self.base64Length(Self.maxAssertionBytes), field: "challenge.token")
        guard let keyIDText = submission.fields["key_id"] else { throw ChallengeVendorError.malformed("key_id", "is required") }
        guard let clientDataText = submission.fields["client_data"] else { throw ChallengeVendorError.malformed("client_data", "is required") }
        try Self.bound(keyIDText, Self.maxFieldLength, field: "challenge.key_id")
        try Self.bound(clientDataText, Self.maxFieldLength, field: "challenge.client_data")
        guard let cbor = Self.base64(submission.token) else { throw ChallengeVendorError.malformed("token", "must be base64") }
        let keyID = try Self.keyID(keyIDText, field: "challenge.key_id")
        let assertion = try AppAttestAssertion(cbor: cbor)
        let clientData = try AppAttestClientData(base64url: clientDataText)

        guard clientData.binding == context.binding else { throw ChallengeVendorError.failed(provider, "the client data is bound to another request") }
        guard let expiresAt = nonces.validate(clientData.challenge, now: context.now) else {
            throw ChallengeVendorError.failed(provider, "the challenge is not one this service issued, or it expired")
        }
        guard let key = try ledger.attestedKey(id: Base64.encode(keyID)) else { throw ChallengeVendorError.failed(provider, "the key is not attested") }
        guard key.environment == attestation.environment.rawValue, attestation.appIDs.contains(key.appID) else {
            throw ChallengeVendorError.failed(provider, "the key was attested for an app or environment this service no longer accepts")
        }
        let counter = try assertion.verify(clientData: clientData.bytes, key: key)
        guard try ledger.advanceAttestedKeyCounter(id: key.keyID, to: Int64(counter)) else {
            throw ChallengeVendorError.failed(provider, "the assertion counter did not increase (a replayed assertion)")
        }
        // The gate records the nonce once (`app_attest|nonce:…`): a second assertion over it fails.
        return ChallengeProof(provider: provider, replayKey: Self.replayKey(clientData.challenge), replayExpiresAt: expiresAt)
    }

    // MARK: Input

    static func replayKey(_ nonce: String) -> String { "nonce:" + nonce }

    /// The base64 length of `bytes` bytes, padded.
    static func base64Length(_ bytes: Int) -> Int { (bytes + 2) / 3 * 4 }

    /// Refuses text over `limit` UTF-8 bytes before anything is decoded.
    static func bound(_ text: String, _ limit: Int, field: String) throws {
        guard text.utf8.count <= limit else {
            throw VerifyError(.invalidRequest, "\(field) is longer than \(limit) characters", details: ["field": .string(field)])
        }
    }

    /// Standard base64 as `DCAppAttestService` data is usually sent (`base64EncodedString()`);
    /// base64url without padding is accepted too.
    static func base64(_ text: String) -> [UInt8]? {
        Base64.decode(text) ?? Base64URL.decode(text)
    }

    /// A key id: the base64 of 32 bytes `generateKey` returned.
    static func keyID(_ text: String, field: String) throws -> [UInt8] {
        guard let bytes = base64(text), bytes.count == 32 else {
            throw VerifyError(.invalidRequest, "\(field) must be the base64 key id of an App Attest key (32 bytes)", details: ["field": .string(field)])
        }
        return bytes
    }
}
