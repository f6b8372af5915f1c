internal import COpenSSL

/// Cryptographically secure random numbers from OpenSSL's CSPRNG (`RAND_bytes`).
public enum SecureRandom {
    /// Returns `count` random bytes.
    ///
    /// A CSPRNG failure leaves no safe way to continue (tokens, nonces and
    /// keys would be predictable), so it stops the process with `fatalError`.
    /// - Precondition: `count >= 0`.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes: negative count")
        guard count > 0 else { return [] }
        precondition(count <= Int(Int32.max), "SecureRandom.bytes: count too large")
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard RAND_bytes(buffer.baseAddress, Int32(count)) == 1 else {
                fatalError("SecureRandom: RAND_bytes failed: \(OpenSSL.error("RAND_bytes"))")
            }
            initialized = count
        }
    }

    /// Returns a uniformly distributed random value in `0 ..< bound`.
    ///
    /// Uses rejection sampling: 64-bit draws below `2^64 mod bound` are
    /// discarded, so every result is exactly equally likely (no modulo bias).
    /// - Precondition: `bound > 0`.
    public static func uniform(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "SecureRandom.uniform: bound must be positive")
        // (2^64 - bound) mod bound == 2^64 mod bound: the size of the biased tail.
        let threshold = (0 &- bound) % bound
        while true {
            let value = next64()
            if value >= threshold { return value % bound }
        }
    }

    /// One random `UInt64`.
    private static func next64() -> UInt64 {
        var value: UInt64 = 0
        withUnsafeMutableBytes(of: &value) { raw in
            guard RAND_bytes(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(raw.count)) == 1 else {
                fatalError("SecureRandom: RAND_bytes failed: \(OpenSSL.error("RAND_bytes"))")
            }
        }
        return value
    }
}
