import Foundation

/// Cryptographically secure randomness, injected so tests can seed it.
public protocol RandomSource: Sendable {
    /// `count` uniformly random bytes.
    func bytes(_ count: Int) -> [UInt8]
    /// A uniformly random integer in `0..<bound` (no modulo bias).
    func uniform(below bound: UInt64) -> UInt64
}

extension RandomSource {
    /// A prefixed random identifier, e.g. `ver_` + 32 lowercase hex digits (128 bits).
    public func identifier(prefix: String) -> String {
        prefix + Hex.encode(bytes(16))
    }

    /// A prefixed identifier of the same shape whose first 48 bits are the creation time in
    /// milliseconds and the other 80 random: ids made close in time sort together, so rows
    /// inserted by one batch land in the same B-tree pages (fewer pages written per commit)
    /// instead of one random page each. 80 random bits keep the id unguessable.
    public func timeOrderedIdentifier(prefix: String, at now: Date) -> String {
        let millis = UInt64(max(0, (now.timeIntervalSince1970 * 1000).rounded(.down)))
        var raw = (0..<6).map { UInt8(truncatingIfNeeded: millis >> (40 - 8 * UInt64($0))) }
        raw += bytes(10)
        return prefix + Hex.encode(raw)
    }
}
