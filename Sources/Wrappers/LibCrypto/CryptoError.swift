/// An error thrown by the `Crypto` module.
///
/// Every OpenSSL return code is checked; a failing call becomes
/// ``openSSL(function:reason:)`` carrying OpenSSL's own error string.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Key material is malformed, has the wrong size, or is of an unsupported
    /// type (for example an RSA key below 2048 bits or an EC key not on P-256).
    case invalidKey(String)
    /// An argument is outside the range the operation accepts.
    case invalidArgument(String)
    /// A certificate is malformed, or a chain does not verify (the reason is OpenSSL's).
    case invalidCertificate(String)
    /// AES-GCM authentication failed: wrong key, tampered or truncated box,
    /// or mismatching associated data.
    case authenticationFailed
    /// An OpenSSL call failed. `function` names the call; `reason` is the
    /// first error string from OpenSSL's thread-local error queue.
    case openSSL(function: String, reason: String)

    /// A human-readable description of the error.
    public var description: String {
        switch self {
        case .invalidKey(let detail):
            return "invalid key: \(detail)"
        case .invalidArgument(let detail):
            return "invalid argument: \(detail)"
        case .invalidCertificate(let detail):
            return "invalid certificate: \(detail)"
        case .authenticationFailed:
            return "authentication failed"
        case .openSSL(let function, let reason):
            return "\(function) failed: \(reason)"
        }
    }
}
