import Foundation

/// A server nonce an app asks for before it attests a key or signs an assertion
/// (docs/CHALLENGES.md, "app_attest").
public struct AppAttestChallenge: Sendable, Equatable {
    /// Opaque, base64url; used once.
    public let challenge: String
    public let expiresAt: Date

    public init(challenge: String, expiresAt: Date) {
        self.challenge = challenge
        self.expiresAt = expiresAt
    }
}

/// What an app submits to register a key: `DCAppAttestService.attestKey`'s output for a key
/// and a server nonce.
public struct AppAttestRegistration: Sendable, Equatable {
    /// The key id `generateKey` returned (standard base64 of 32 bytes).
    public let keyID: String
    /// The attestation object, standard base64 of its CBOR.
    public let attestation: String
    /// The server nonce whose SHA-256 was the attestation's client data hash.
    public let challenge: String

    public init(keyID: String, attestation: String, challenge: String) {
        self.keyID = keyID
        self.attestation = attestation
        self.challenge = challenge
    }
}

/// The App Attest provider's two client operations besides assertions: issuing server nonces
/// and accepting a key's attestation (once per key). Refusals are `VerifyError`s:
/// `invalid_request` for a malformed or oversized submission, `challenge_failed` for one that
/// was checked and refused (including a key that is already attested).
public protocol AppAttestRegistry: Sendable {
    /// A fresh server nonce.
    func issueChallenge(now: Date) throws -> AppAttestChallenge
    /// Verifies an attestation and stores its key; returns the stored key.
    func register(_ registration: AppAttestRegistration, now: Date) throws -> AttestedKey
}
