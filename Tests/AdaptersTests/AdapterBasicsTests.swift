import Adapters
import LibCrypto
import Foundation
import Testing
import VerifyCore

@Suite struct AdapterBasicsTests {
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

    @Test func jwtSignerPublishesAUsableJWK() throws {
        let signer = try JWTSigner(key: try SigningKey.generate(.ed25519))
        let jwk = try signer.publicJWK()
        #expect(jwk["kid"] == .string(signer.keyID))
        #expect(jwk["alg"] == "EdDSA")
        #expect(jwk["use"] == "sig")
        var fields: [String: String] = [:]
        if case .object(let members) = jwk { for m in members { fields[m.key] = m.value.stringValue } }
        let verifier = try VerifyingKey(jwk: fields)
        let message = Array("header.payload".utf8)
        #expect(verifier.verify(signature: try signer.sign(message), message: message))
    }

    @Test func libphonenumberParserMapsToTheDomain() {
        let parser = LibPhoneNumberParser()
        guard case .success(let n) = parser.parse("07400 123456", defaultRegion: "GB") else { Issue.record("must parse"); return }
        #expect(n.e164 == "+447400123456" && n.region == "GB" && n.countryCode == 44 && n.lineType == .mobile)
        #expect(n.international == "+44 7400 123456")
        #expect(parser.parse("+1 415 555", defaultRegion: nil) == .failure(.tooShort))
    }

    @Test func randomCodesAreUniformOverTheWholeRange() {
        let random = OpenSSLRandom()
        #expect(random.bytes(16).count == 16)
        var seen = Set<UInt64>()
        for _ in 0..<2000 { seen.insert(random.uniform(below: 10)) }
        #expect(seen == Set(0..<10))
    }
}
