import LibCrypto
import VerifyCore

/// Codes hashed as HMAC-SHA-256(key, verificationID ‖ 0x00 ‖ code), compared in constant time.
public struct HMACCodeHasher: CodeHasher {
    private let key: [UInt8]

    /// `key` is derived from `PHONE_VERIFY_CODE_SECRET` (see `SecretKeys`).
    public init(key: [UInt8]) {
        self.key = key
    }

    public func hash(code: String, verificationID: String) -> [UInt8] {
        HMAC.sha256(key: key, data: Array(verificationID.utf8) + [0] + Array(code.utf8))
    }

    public func matches(code: String, verificationID: String, expected: [UInt8]) -> Bool {
        ConstantTime.equals(hash(code: code, verificationID: verificationID), expected)
    }
}
