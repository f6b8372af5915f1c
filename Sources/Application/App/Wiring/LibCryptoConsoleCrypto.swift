import Console
import LibCrypto
import VerifyCore

/// The console's MAC and key ids on libcrypto: HMAC-SHA-256 under the key derived from the code
/// secret (`SecretKeys.consoleSessionKey`), and SHA-256 for API key ids.
struct LibCryptoConsoleCrypto: ConsoleCrypto {
    let key: [UInt8]

    func mac(_ data: [UInt8]) -> [UInt8] { HMAC.sha256(key: key, data: data) }

    func keyID(_ key: [UInt8]) -> String { String(Hex.encode(Digest.sha256(key)).prefix(8)) }
}
