import Foundation

/// What the store remembers of a signing key: its public half and where it is in its life.
/// Private keys never enter the store: they come from `PHONE_VERIFY_SIGNING_KEY_FILE` (or, in
/// development, the data directory).
public struct SigningKeyRecord: Sendable, Equatable {
    public enum Status: String, Sendable { case active, verifying, retired }

    public let kid: String
    public let algorithm: String
    /// The public JWK as JSON text (with kid, alg, use).
    public let publicJWK: String
    public let createdAt: Date
    public var status: Status
    /// For `verifying` keys: when the last credential it signed expires; it leaves JWKS then.
    public var retireAfter: Date?

    public init(kid: String, algorithm: String, publicJWK: String, createdAt: Date, status: Status, retireAfter: Date? = nil) {
        self.kid = kid
        self.algorithm = algorithm
        self.publicJWK = publicJWK
        self.createdAt = createdAt
        self.status = status
        self.retireAfter = retireAfter
    }

    /// Whether JWKS still publishes it at `now`.
    public func isPublished(at now: Date) -> Bool {
        switch status {
        case .active: return true
        case .verifying: return retireAfter.map { now < $0 } ?? true
        case .retired: return false
        }
    }
}

/// Key metadata in the store, shared by every replica.
public protocol SigningKeyStore: Sendable {
    func signingKeys() throws -> [SigningKeyRecord]
    /// Makes `record` the active key: inserts it if new, and demotes any other active key to
    /// verifying until `now + credentialLifetime`.
    func activate(_ record: SigningKeyRecord, now: Date, credentialLifetime: TimeInterval) throws
    /// Marks a non-active key retired; returns false if there is no such key or it is active.
    func retire(kid: String) throws -> Bool
    /// Keeps a verifying key published until at least `until` (a replica that still signs with
    /// it during a rolling key change calls this on every refresh).
    func keepPublished(kid: String, until: Date) throws
}
