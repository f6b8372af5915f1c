import LibCrypto
import Foundation
import VerifyCore

/// PhoneVerify's own public keys as verifying keys: parsed again only when the published set
/// changes (rotation), so checking a credential costs one signature verification.
///
/// `@unchecked Sendable`: `snapshot` is only touched under `lock`.
final class OwnKeySet: @unchecked Sendable {
    private let jwks: @Sendable () -> [[String: String]]
    private let refresh: @Sendable () -> Void
    private let lock = NSLock()
    private var snapshot: (jwks: [[String: String]], keys: [JWKSKey])?

    init(jwks: @escaping @Sendable () -> [[String: String]], refresh: @escaping @Sendable () -> Void = {}) {
        self.jwks = jwks
        self.refresh = refresh
    }

    /// The published keys named `keyID`; when there are none, after asking for a refresh (a key
    /// another replica has just activated is not published here until the key ring rereads).
    func keys(keyID: String?) -> [JWKSKey] {
        let named = keys().filter { $0.keyID == keyID }
        guard named.isEmpty else { return named }
        refresh()
        return keys().filter { $0.keyID == keyID }
    }

    /// The keys of the set published now.
    func keys() -> [JWKSKey] {
        let current = jwks()
        lock.lock()
        if let snapshot, snapshot.jwks == current {
            lock.unlock()
            return snapshot.keys
        }
        lock.unlock()
        let keys = JWKSDocument.keys(from: current)
        lock.lock()
        snapshot = (current, keys)
        lock.unlock()
        return keys
    }
}

extension Array where Element == JWKSKey {
    /// Checks `parts`' signature with the key its header names (`kid`, `alg`).
    /// - Throws: `VerifyError(.unauthenticated)`: unknown key, mismatched algorithm, bad signature.
    func checkSignature(of parts: JWTParts, algorithm: SigningAlgorithm) throws {
        let named = filter { $0.keyID == parts.keyID }
        guard !named.isEmpty else { throw JWTFailure.reject("unknown token signing key") }
        let usable = named.filter { $0.matches(keyID: parts.keyID, algorithm: algorithm) }
        guard !usable.isEmpty else { throw JWTFailure.reject("token algorithm does not match the key") }
        guard usable.contains(where: { $0.key.verify(signature: parts.signature, message: parts.signingInput) })
        else { throw JWTFailure.reject("invalid token signature") }
    }
}
