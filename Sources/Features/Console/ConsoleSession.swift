import Foundation
import VerifyCore

/// What the console's cookie says, signed: a random session id (its CSRF token is derived from
/// it), the fingerprint of the API key that signed in (never the key: removing the key from the
/// configuration ends the session), when it began and when it was last used (idle timeout).
struct ConsoleSession: Sendable, Equatable {
    static let version = "v1"
    /// 32 hex digits of randomness, fixed for the session's life.
    let id: String
    /// The keyed fingerprint of the API key (``ConsoleSessions/fingerprint(_:)``).
    let keyFingerprint: String
    /// Unix seconds.
    let issuedAt: Int64
    let lastSeen: Int64

    /// `v1.ID.FINGERPRINT.ISSUED.LASTSEEN` (hex and digits only: nothing to escape in a cookie).
    var payload: String { [Self.version, id, keyFingerprint, String(issuedAt), String(lastSeen)].joined(separator: ".") }

    /// Parses a payload; nil unless every part has its exact shape.
    init?(payload: String) {
        let parts = payload.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[0] == Self.version, Self.isHex(parts[1], count: 32), Self.isHex(parts[2], count: 32),
            parts[3].count <= 12, parts[4].count <= 12, let issued = Int64(parts[3]), let seen = Int64(parts[4]),
            issued >= 0, seen >= issued
        else { return nil }
        self.init(id: parts[1], keyFingerprint: parts[2], issuedAt: issued, lastSeen: seen)
    }

    init(id: String, keyFingerprint: String, issuedAt: Int64, lastSeen: Int64) {
        self.id = id
        self.keyFingerprint = keyFingerprint
        self.issuedAt = issuedAt
        self.lastSeen = lastSeen
    }

    static func isHex(_ text: String, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
