import Credentials
import Crypto
import LibCrypto

/// The code secret's derived keys and the signing key, read (or, in development, created) before
/// the server binds: a key file that cannot be used stops the start with nothing listening.
struct Secrets {
    let keys: SecretKeys
    let signer: JWTSigner

    init(configuration: Configuration) throws {
        keys = try SecretKeys(secret: try KeyMaterial.codeSecret(configuration))
        signer = try JWTSigner(key: try KeyMaterial.signingKey(configuration))
    }

    var sealer: AESGCMSealer { AESGCMSealer(key: keys.outboxKey) }
}
