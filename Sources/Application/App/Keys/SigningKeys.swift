import Credentials
import Foundation
import LibCrypto
import Telemetry
import VerifyCore

/// The signing key made the store's active one (``KeyActivation``) and the key ring that keeps
/// the published key set current (``StoreKeyRing``, refreshed on use: nothing runs), for
/// credentials and JWKS.
struct SigningKeys {
    let keyRing: StoreKeyRing
    /// Whether this start replaced the store's active key (other replicas must reread first).
    let replacedActiveKey: Bool

    init(configuration c: Configuration, signer: JWTSigner, store: any AppStore, clock: any Clock, logger: Logger) throws {
        replacedActiveKey = try KeyActivation.atStart(
            signer, store: store, now: clock.now(), credentialLifetime: TimeInterval(c.credentialTTL), logger: logger)
        keyRing = try StoreKeyRing(
            active: signer, store: store, clock: clock, refreshInterval: TimeInterval(c.keyRefreshSeconds),
            credentialLifetime: TimeInterval(c.credentialTTL)
        ) {
            // When the store's active key is a new one (`phone-verify keys rotate`, here or on another
            // replica), the key file is read again: the development key the command wrote, or the
            // PEM the operator installed at PHONE_VERIFY_SIGNING_KEY_FILE. A file that still holds
            // the old key changes nothing; the old key keeps signing and stays published.
            (try? KeyMaterial.signingKey(c)).flatMap { try? JWTSigner(key: $0) }
        }
    }
}
