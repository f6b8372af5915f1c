import Credentials
import Foundation
import Telemetry
import VerifyCore

/// What a replica does with its key file's key at start-up.
enum KeyActivation {
    struct RetiredKey: Error, CustomStringConvertible {
        let kid: String
        var description: String {
            "the key in the signing key file (\(kid)) was retired (`phone-verify keys retire`): install a new key there"
        }
    }

    /// A key the store has never seen, or the active one, is (made) active. A key the store knows
    /// as verifying while another is active means this replica's file was not updated in a
    /// rotation (or went back to an old key): it signs with it as a lagging replica, keeping it
    /// published, instead of silently undoing the rotation (`phone-verify keys rotate` makes it
    /// active again on purpose). A retired key is refused: nobody would publish it.
    ///
    /// Returns true when this replaced another active key: other replicas publish the new key
    /// from their next reread of the store, at most ``StoreKeyRing/forcedRefreshInterval`` after a
    /// verifier asks them for it, so this replica must not sign with it before that has passed.
    @discardableResult
    static func atStart(
        _ signer: JWTSigner, store: any SigningKeyStore, now: Date, credentialLifetime: TimeInterval, logger: Logger
    ) throws -> Bool {
        let records = try store.signingKeys()
        let mine = records.first { $0.kid == signer.keyID }
        if mine?.status == .retired { throw RetiredKey(kid: signer.keyID) }
        if mine?.status == .verifying, let active = records.first(where: { $0.status == .active }) {
            logger.warning("the signing key file holds a key that is no longer the active one; signing with it until the file holds the active key", [
                ("kid", signer.keyID), ("active_kid", active.kid),
            ])
            try store.keepPublished(kid: signer.keyID, until: now.addingTimeInterval(credentialLifetime))
            return false
        }
        try store.activate(try StoreKeyRing.record(for: signer, at: now), now: now, credentialLifetime: credentialLifetime)
        return records.contains { $0.status == .active && $0.kid != signer.keyID }
    }
}
