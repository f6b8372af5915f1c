/// The two primitives the console's sessions need, passed in by the application (the feature
/// layer touches no C library): a keyed MAC with the console's own key (HMAC-SHA-256 with a key
/// derived from `PHONE_VERIFY_CODE_SECRET`, so every replica sharing the secret accepts the
/// same cookies) and a public key id for audit lines.
public protocol ConsoleCrypto: Sendable {
    /// HMAC-SHA-256 of `data` under the console session key (32 bytes).
    func mac(_ data: [UInt8]) -> [UInt8]
    /// A non-secret id of an API key for logs: the first 8 hex digits of its SHA-256.
    func keyID(_ key: [UInt8]) -> String
}
