import LibCrypto
import VerifyCore

/// Codes hashed as HMAC-SHA-256(key, verificationID ‖ 0x00 ‖ code), compared in constant time.
public struct HMACCodeHasher: CodeHasher {
    /// Prepared once: a start and a check each hash one code (docs/BENCHMARKS.md, "Third round").
    private let key: HMACKey

    /// `key` is derived from `PHONE_VERIFY_CODE_SECRET` (see `SecretKeys`).
    public init(key: [UInt8]) {
        self.key = HMACKey(sha256Key: key)
    }

    public func hash(code: String, verificationID: String) -> [UInt8] {
        var message = [UInt8]()
        message.reserveCapacity(verificationID.utf8.count + 1 + code.utf8.count)
        message.append(contentsOf: verificationID.utf8)
        message.append(0)
        message.append(contentsOf: code.utf8)
        return key.mac(message)
    }

    public func matches(code: String, verificationID: String, expected: [UInt8]) -> Bool {
        ConstantTime.equals(hash(code: code, verificationID: verificationID), expected)
    }
}
