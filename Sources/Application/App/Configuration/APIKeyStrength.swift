import Foundation

/// What production demands of an API key (docs/OPERATIONS.md, "API keys"): at least 32
/// characters, at least 128 bits by a simple estimate (length × log2 of the alphabet its
/// character classes span: digits only 10, hex 16, one case of letters 26, …, all printable 95), at
/// least 8 different characters, and not a short piece repeated. A key made by
/// `openssl rand -hex 16` or `openssl rand -base64 24` passes; a word with digits appended does not.
enum APIKeyStrength {
    static let minimumLength = 32
    static let minimumBits = 128.0
    static let minimumDistinct = 8

    /// Why `key` is too weak for production, or nil.
    static func problem(_ key: String) -> String? {
        let scalars = Array(key.unicodeScalars)
        if scalars.count < minimumLength { return "shorter than \(minimumLength) characters" }
        if Set(scalars).count < minimumDistinct { return "fewer than \(minimumDistinct) different characters" }
        if let period = (1...16).first(where: { p in p < scalars.count && scalars.indices.allSatisfy { scalars[$0] == scalars[$0 % p] } }) {
            return "a piece of \(period) characters repeated"
        }
        if estimatedBits(scalars) < minimumBits { return "under \(Int(minimumBits)) bits of estimated entropy" }
        return nil
    }

    /// Length × log2(alphabet), the alphabet being the union of the character classes used.
    static func estimatedBits(_ scalars: [Unicode.Scalar]) -> Double {
        let digits = scalars.contains { ("0"..."9").contains($0) }
        let lower = scalars.contains { ("a"..."z").contains($0) }
        let upper = scalars.contains { ("A"..."Z").contains($0) }
        let other = scalars.contains { !("0"..."9").contains($0) && !("a"..."z").contains($0) && !("A"..."Z").contains($0) }
        let hexOnly = scalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) } || scalars.allSatisfy { ("0"..."9").contains($0) || ("A"..."F").contains($0) }
        var alphabet = 0
        if !lower && !upper && !other {
            alphabet = 10
        } else if hexOnly {
            alphabet = 16
        } else {
            alphabet = (digits ? 10 : 0) + (lower ? 26 : 0) + (upper ? 26 : 0) + (other ? 33 : 0)
        }
        return Double(scalars.count) * log2(Double(max(alphabet, 2)))
    }

    /// The production problem of one key list: which entries (by position, never the key) fail.
    static func problem(of keys: [String]) -> String? {
        let weak = keys.enumerated().compactMap { index, key in problem(key).map { "entry \(index + 1): \($0)" } }
        guard !weak.isEmpty else { return nil }
        return "has keys too weak for production mode (" + weak.joined(separator: "; ")
            + "); use at least 32 random characters, e.g. openssl rand -hex 32 (docs/OPERATIONS.md, \"API keys\")"
    }
}
