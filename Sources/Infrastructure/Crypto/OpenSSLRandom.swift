import LibCrypto
import VerifyCore

/// `RandomSource` from OpenSSL's CSPRNG.
public struct OpenSSLRandom: RandomSource {
    public init() {}
    public func bytes(_ count: Int) -> [UInt8] { SecureRandom.bytes(count) }
    public func uniform(below bound: UInt64) -> UInt64 { SecureRandom.uniform(below: bound) }
}
