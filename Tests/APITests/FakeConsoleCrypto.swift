import Console
import VerifyCore

/// A keyed stand-in for HMAC-SHA-256 (the real one is libcrypto's, tested in LibCryptoTests):
/// FNV-1a over the key and data, stretched to 32 bytes. Different data, different MACs.
struct FakeConsoleCrypto: ConsoleCrypto {
    var key: [UInt8] = Array("console-test-key".utf8)

    func mac(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for round in 0..<4 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 &+ UInt64(round)
            for byte in key + [0] + data {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: hash >> UInt64(shift))) }
        }
        return out
    }

    func keyID(_ key: [UInt8]) -> String { String(Hex.encode(mac(key)).prefix(8)) }
}
