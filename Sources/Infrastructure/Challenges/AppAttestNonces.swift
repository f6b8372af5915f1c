import Encoding
import Foundation
import LibCrypto
import VerifyCore

/// Issues and checks server nonces (a seam for tests that replay a published attestation, whose
/// nonce no key of ours issued).
protocol AppAttestNonceChecking: Sendable {
    func issue(now: Date) -> AppAttestChallenge
    /// The nonce's expiry when it is genuine and unexpired at `now`, else nil.
    func validate(_ nonce: String, now: Date) -> Date?
}

/// Stateless server nonces for App Attest: 16 random bytes ‖ expiry (8 bytes, big-endian Unix
/// seconds) ‖ the first 16 bytes of HMAC-SHA-256(nonce key, label ‖ both), base64url (54
/// characters). Any replica with the deployment's nonce key can check one; using one is recorded
/// once through the ledger (`app_attest|nonce:<nonce>`) by whoever accepts it.
struct AppAttestNonces: AppAttestNonceChecking {
    let key: [UInt8]
    let random: any RandomSource
    /// How long a nonce may be used after it is issued.
    let lifetime: TimeInterval

    static let label = Array("app_attest nonce v1|".utf8)
    static let randomLength = 16, macLength = 16
    static let encodedLength = 54

    init(key: [UInt8], random: any RandomSource, lifetime: TimeInterval = 300) {
        self.key = key
        self.random = random
        self.lifetime = lifetime
    }

    func issue(now: Date) -> AppAttestChallenge {
        let expiry = Int64((now.timeIntervalSince1970 + lifetime).rounded(.up))
        var payload = random.bytes(Self.randomLength)
        payload += (0..<8).map { UInt8(truncatingIfNeeded: expiry >> (56 - 8 * Int64($0))) }
        let nonce = Base64URL.encode(payload + mac(payload))
        return AppAttestChallenge(challenge: nonce, expiresAt: Date(timeIntervalSince1970: TimeInterval(expiry)))
    }

    /// The nonce's expiry when it was issued with this key and has not expired at `now`.
    func validate(_ nonce: String, now: Date) -> Date? {
        guard nonce.utf8.count == Self.encodedLength, let bytes = Base64URL.decode(nonce),
            bytes.count == Self.randomLength + 8 + Self.macLength
        else { return nil }
        let payload = Array(bytes.prefix(Self.randomLength + 8))
        guard ConstantTime.equals(mac(payload), Array(bytes.suffix(Self.macLength))) else { return nil }
        let expiry = payload.suffix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let expiresAt = Date(timeIntervalSince1970: TimeInterval(expiry))
        return expiresAt > now ? expiresAt : nil
    }

    private func mac(_ payload: [UInt8]) -> [UInt8] {
        Array(HMAC.sha256(key: key, data: Self.label + payload).prefix(Self.macLength))
    }
}
