import Adapters
import LibCrypto

/// The code secret's derived keys and the signing key, read (or, in development, created) before
/// the server binds: a key file that cannot be used stops the start with nothing listening.
final class SecretsService: ApplicationService {
    let configuration: Configuration
    private(set) var keys: SecretKeys!
    private(set) var signer: JWTSigner!

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    var sealer: AESGCMSealer { AESGCMSealer(key: keys.outboxKey) }

    func start() throws {
        keys = try SecretKeys(secret: try KeyMaterial.codeSecret(configuration))
        signer = try JWTSigner(key: try KeyMaterial.signingKey(configuration))
    }

    func stop() {}
}
