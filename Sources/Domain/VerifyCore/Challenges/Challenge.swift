import Foundation

/// When a start (or resend) must carry proof that a person or a genuine app asks
/// (`PHONE_VERIFY_CHALLENGE`, docs/CHALLENGES.md).
public enum ChallengeMode: String, Sendable, CaseIterable {
    /// Never asked (no provider configured, or switched off).
    case off
    /// Asked only when risk is raised: the destination is watched or paused by the fraud guard,
    /// or the client, number or block is past a soft threshold of its limits.
    case suspicious
    /// Asked of every start and resend of the native API.
    case always
}

/// The proof a client sends: `"challenge": {"provider": "…", "token": "…", …}`. Provider-specific
/// members (App Attest's `key_id` and `client_data`, …) are kept as strings in `fields`.
public struct ChallengeSubmission: Sendable, Equatable {
    public let provider: String
    public let token: String
    public let fields: [String: String]

    public init(provider: String, token: String, fields: [String: String] = [:]) {
        self.provider = provider
        self.token = token
        self.fields = fields
    }
}

/// What a proof must be bound to.
public struct ChallengeContext: Sendable, Equatable {
    /// "start" or "resend".
    public let action: String
    /// The destination, E.164.
    public let phoneNumber: String
    /// The verification a resend is for (nil on start).
    public let verificationID: String?
    /// The client's IP as seen by the service (for siteverify's `remoteip`; empty if unknown).
    public let clientIP: String
    public let now: Date

    public init(action: String, phoneNumber: String, verificationID: String? = nil, clientIP: String, now: Date) {
        self.action = action
        self.phoneNumber = phoneNumber
        self.verificationID = verificationID
        self.clientIP = clientIP
        self.now = now
    }

    /// The request a device-bound proof (App Attest assertion, Play Integrity request hash,
    /// grant) must name: `phoneverify:<action>:<E.164>[:<verification id>]` (docs/CHALLENGES.md).
    public var binding: String {
        ["phoneverify", action, phoneNumber].joined(separator: ":") + (verificationID.map { ":" + $0 } ?? "")
    }
}

/// A verified proof.
public struct ChallengeProof: Sendable, Equatable {
    public let provider: String
    /// Marks the token used: it is recorded once (`ChallengeLedger.consumeOnce`) and a second use
    /// is a replay. Derived from the token (a hash, never the token itself) or its id (`jti`).
    public let replayKey: String
    /// Until when the replay key must be remembered (the token's own expiry, or a bound).
    public let replayExpiresAt: Date

    public init(provider: String, replayKey: String, replayExpiresAt: Date) {
        self.provider = provider
        self.replayKey = replayKey
        self.replayExpiresAt = replayExpiresAt
    }
}

/// One provider of proofs, verified server-side. `verify` may block on the network (siteverify):
/// it is called outside any store transaction, with a bounded timeout.
public protocol ChallengeVerifier: Sendable {
    /// The provider's name in requests and settings: `turnstile`, `hcaptcha`, `recaptcha`,
    /// `app_attest`, `play_integrity`, `grant`.
    var provider: String { get }
    /// What a client needs to produce a token, listed in `challenge_required` (e.g.
    /// `["site_key": "0x4AAA…"]`). Never a secret.
    var publicParameters: [String: String] { get }
    /// Verifies `submission` for `context`; throws `VerifyError` `.challengeFailed` (bad, expired
    /// or foreign token) or `.invalidRequest` (a malformed submission), `.unavailable` when the
    /// vendor cannot be reached.
    func verify(_ submission: ChallengeSubmission, context: ChallengeContext) throws -> ChallengeProof
}

/// State challenges keep in the store: used tokens (replays) and App Attest keys.
public protocol ChallengeLedger: Sendable {
    /// Records `key` as used until `expiresAt`; false when it was already recorded (a replay).
    /// Atomic across processes.
    func consumeOnce(key: String, expiresAt: Date, now: Date) throws -> Bool
    /// An attested App Attest key, by its key id (base64 of the public key's SHA-256).
    func attestedKey(id: String) throws -> AttestedKey?
    /// Stores a newly attested key; false when the key id is already attested (attestation is
    /// accepted once per key).
    func insertAttestedKey(_ key: AttestedKey) throws -> Bool
    /// Raises a key's signature counter to `counter`; false (and nothing changed) unless
    /// `counter` is greater than the stored one. Atomic: two assertions with one counter value
    /// never both pass.
    func advanceAttestedKeyCounter(id: String, to counter: Int64) throws -> Bool
}

/// An App Attest key that passed attestation.
public struct AttestedKey: Sendable, Equatable {
    public let keyID: String
    /// `TEAMID.bundle.id`.
    public let appID: String
    /// The credential public key, DER SubjectPublicKeyInfo (P-256).
    public let publicKey: [UInt8]
    public let counter: Int64
    /// "production" or "development".
    public let environment: String
    public let createdAt: Date

    public init(keyID: String, appID: String, publicKey: [UInt8], counter: Int64, environment: String, createdAt: Date) {
        self.keyID = keyID
        self.appID = appID
        self.publicKey = publicKey
        self.counter = counter
        self.environment = environment
        self.createdAt = createdAt
    }
}

/// How far risk may rise before proof is asked, and what a passed challenge lifts
/// (docs/CHALLENGES.md, "When a challenge is asked").
public struct ChallengePolicy: Sendable, Equatable {
    /// A client, number or block whose send quota is used to this fraction is suspicious.
    public var softThreshold = 0.5
    /// A passed challenge lets a start past an exhausted number, client or block quota up to this
    /// many times the quota (the global spend cap and the per-verification cap never move).
    public var liftFactor = 2

    public init() {}
}
