/// Keyed hashing of one-time codes. Codes are never stored in clear: only a keyed hash
/// (HMAC-SHA-256 with a server secret in production), bound to the verification id so a
/// hash from one verification says nothing about another.
public protocol CodeHasher: Sendable {
    func hash(code: String, verificationID: String) -> [UInt8]
    /// Constant-time comparison of `code`'s hash with `expected`.
    func matches(code: String, verificationID: String, expected: [UInt8]) -> Bool
}

/// Authenticated encryption for outbox payloads (the message text holds the code).
public protocol MessageSealer: Sendable {
    func seal(_ plaintext: [UInt8]) throws -> [UInt8]
    func open(_ sealed: [UInt8]) throws -> [UInt8]
}
