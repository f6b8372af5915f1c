import Adapters
import Foundation
import LibCrypto
import Telemetry
import VerifyCore

/// Makes the signing key the store's active one (``KeyActivation``) and keeps the published key
/// set current (``StoreKeyRing``), for credentials and JWKS.
final class SigningKeyService: ApplicationService {
    let configuration: Configuration
    let store: StoreService
    let secrets: SecretsService
    let clock: any Clock
    let logger: Logger
    private(set) var keyRing: StoreKeyRing!
    /// Whether this start replaced the store's active key (other replicas must reread first).
    private(set) var replacedActiveKey = false

    init(configuration: Configuration, store: StoreService, secrets: SecretsService, clock: any Clock, logger: Logger) {
        self.configuration = configuration
        self.store = store
        self.secrets = secrets
        self.clock = clock
        self.logger = logger
    }

    func start() throws {
        let c = configuration
        replacedActiveKey = try KeyActivation.atStart(
            secrets.signer, store: store.store, now: clock.now(), credentialLifetime: TimeInterval(c.credentialTTL), logger: logger)
        keyRing = try StoreKeyRing(
            active: secrets.signer, store: store.store, clock: clock, refreshInterval: TimeInterval(c.keyRefreshSeconds),
            credentialLifetime: TimeInterval(c.credentialTTL)
        ) {
            // When the store's active key is a new one (`phone-verify keys rotate`, here or on another
            // replica), the key file is read again: the development key the command wrote, or the
            // PEM the operator installed at PHONE_VERIFY_SIGNING_KEY_FILE. A file that still holds
            // the old key changes nothing; the old key keeps signing and stays published.
            (try? KeyMaterial.signingKey(c)).flatMap { try? JWTSigner(key: $0) }
        }
    }

    func stop() {}
}
