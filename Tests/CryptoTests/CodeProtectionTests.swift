import Crypto
import LibCrypto
import Foundation
import Testing
import VerifyCore

@Suite struct CodeProtectionTests {
    @Test func codeHashesAreKeyedBoundToTheVerificationAndConstantTimeChecked() {
        let hasher = HMACCodeHasher(key: Array(repeating: 7, count: 32))
        let hash = hasher.hash(code: "123456", verificationID: "ver_a")
        #expect(hash.count == 32)
        #expect(hasher.matches(code: "123456", verificationID: "ver_a", expected: hash))
        #expect(!hasher.matches(code: "123457", verificationID: "ver_a", expected: hash))
        #expect(!hasher.matches(code: "123456", verificationID: "ver_b", expected: hash))
        #expect(HMACCodeHasher(key: Array(repeating: 8, count: 32)).hash(code: "123456", verificationID: "ver_a") != hash)
    }

    @Test func outboxSealingRoundTripsAndDetectsTampering() throws {
        let keys = try SecretKeys(secret: Array("a-code-secret-of-at-least-32-characters".utf8))
        #expect(keys.codeHashKey != keys.outboxKey)
        let sealer = AESGCMSealer(key: keys.outboxKey)
        let sealed = try sealer.seal(Array("code 123456".utf8))
        #expect(!String(decoding: sealed, as: UTF8.self).contains("123456"))
        #expect(try sealer.open(sealed) == Array("code 123456".utf8))
        var tampered = sealed
        tampered[tampered.count - 1] ^= 1
        #expect(throws: (any Error).self) { try sealer.open(tampered) }
    }


    @Test func randomCodesAreUniformOverTheWholeRange() {
        let random = OpenSSLRandom()
        #expect(random.bytes(16).count == 16)
        var seen = Set<UInt64>()
        for _ in 0..<2000 { seen.insert(random.uniform(below: 10)) }
        #expect(seen == Set(0..<10))
    }
}
