internal import COpenSSL

/// Comparisons whose running time does not depend on the bytes compared.
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes, compared with `CRYPTO_memcmp`.
    ///
    /// The time taken depends only on the lengths, never on the contents.
    /// Arrays of different lengths compare unequal; `a` is then compared with
    /// itself so that the work is still proportional to its length instead of
    /// returning early. Two empty arrays are equal.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let sameLength = a.count == b.count
        let other = sameLength ? b : a
        guard a.count > 0 else { return sameLength }
        let difference = a.withUnsafeBytes { lhs in
            other.withUnsafeBytes { rhs in
                CRYPTO_memcmp(lhs.baseAddress, rhs.baseAddress, lhs.count)
            }
        }
        return sameLength && difference == 0
    }
}
