import LibCrypto
import VerifyCore

/// Outbox payloads sealed with AES-256-GCM under a key derived from the code secret.
public struct AESGCMSealer: MessageSealer {
    private let key: [UInt8]

    public init(key: [UInt8]) {
        precondition(key.count == 32, "AES-256 needs a 32-byte key")
        self.key = key
    }

    public func seal(_ plaintext: [UInt8]) throws -> [UInt8] {
        try AESGCM.seal(plaintext, key: key, associatedData: Array("phone-verify outbox v1".utf8))
    }

    public func open(_ sealed: [UInt8]) throws -> [UInt8] {
        try AESGCM.open(sealed, key: key, associatedData: Array("phone-verify outbox v1".utf8))
    }
}

/// Keys derived from `PHONE_VERIFY_CODE_SECRET` with HKDF-SHA-256, one per purpose, so the
/// same secret never serves two purposes directly.
public struct SecretKeys: Sendable {
    public let codeHashKey: [UInt8]
    public let outboxKey: [UInt8]
    /// Authenticates server nonces of challenges (App Attest), so they need no storage until used.
    public let challengeNonceKey: [UInt8]
    /// Signs the operator console's session cookies and derives their CSRF tokens.
    public let consoleSessionKey: [UInt8]

    public init(secret: [UInt8]) throws {
        let salt = Array("phone-verify".utf8)
        codeHashKey = try HKDF.sha256(secret: secret, salt: salt, info: Array("code-hmac v1".utf8), length: 32)
        outboxKey = try HKDF.sha256(secret: secret, salt: salt, info: Array("outbox-aes-gcm v1".utf8), length: 32)
        challengeNonceKey = try HKDF.sha256(secret: secret, salt: salt, info: Array("challenge-nonce v1".utf8), length: 32)
        consoleSessionKey = try HKDF.sha256(secret: secret, salt: salt, info: Array("console-session v1".utf8), length: 32)
    }
}
