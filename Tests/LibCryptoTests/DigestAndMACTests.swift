import LibCrypto
import Testing

/// One HMAC-SHA-256 vector from RFC 4231.
struct HMACVector: Sendable, CustomTestStringConvertible {
    let name: String
    let key: [UInt8]
    let data: [UInt8]
    let mac: String
    var testDescription: String { name }
}

@Suite("Digest, HMAC and HKDF")
struct DigestAndMACTests {
    static let rfc4231: [HMACVector] = [
        HMACVector(name: "RFC 4231 test case 1", key: [UInt8](repeating: 0x0B, count: 20), data: utf8("Hi There"),
                   mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        HMACVector(name: "RFC 4231 test case 2", key: utf8("Jefe"), data: utf8("what do ya want for nothing?"),
                   mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        HMACVector(name: "RFC 4231 test case 3", key: [UInt8](repeating: 0xAA, count: 20),
                   data: [UInt8](repeating: 0xDD, count: 50),
                   mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        HMACVector(name: "RFC 4231 test case 4", key: [UInt8](hex: "0102030405060708090a0b0c0d0e0f10111213141516171819"),
                   data: [UInt8](repeating: 0xCD, count: 50),
                   mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        HMACVector(name: "RFC 4231 test case 6", key: [UInt8](repeating: 0xAA, count: 131),
                   data: utf8("Test Using Larger Than Block-Size Key - Hash Key First"),
                   mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        HMACVector(name: "RFC 4231 test case 7", key: [UInt8](repeating: 0xAA, count: 131),
                   data: utf8("This is a test using a larger than block-size key and a larger than block-size data."
                              + " The key needs to be hashed before being used by the HMAC algorithm."),
                   mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test(arguments: rfc4231)
    func hmacSHA256MatchesRFC4231(_ vector: HMACVector) {
        #expect(HMAC.sha256(key: vector.key, data: vector.data).hex == vector.mac)
    }

    @Test(arguments: rfc4231)
    func preparedHMACKeyMatchesRFC4231(_ vector: HMACVector) {
        let key = HMACKey(sha256Key: vector.key)
        // Twice: the prepared context must come out of a call unchanged.
        #expect(key.mac(vector.data).hex == vector.mac)
        #expect(key.mac(vector.data).hex == vector.mac)
    }

    @Test func preparedHMACKeyAcceptsEmptyKeyAndData() {
        #expect(HMACKey(sha256Key: []).mac([]).hex
            == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func hmacAcceptsEmptyKeyAndData() {
        // Cross-checked with `openssl mac -digest SHA256 -macopt hexkey: HMAC </dev/null`.
        #expect(HMAC.sha256(key: [], data: []).hex
            == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func sha256OfABC() {
        #expect(Digest.sha256(utf8("abc")).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Digest.sha256([]).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func hkdfRFC5869TestCase1() throws {
        let okm = try HKDF.sha256(secret: [UInt8](repeating: 0x0B, count: 22),
                                  salt: [UInt8](hex: "000102030405060708090a0b0c"),
                                  info: [UInt8](hex: "f0f1f2f3f4f5f6f7f8f9"), length: 42)
        #expect(okm.hex == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }

    @Test func hkdfRFC5869TestCase3EmptySaltAndInfo() throws {
        let okm = try HKDF.sha256(secret: [UInt8](repeating: 0x0B, count: 22), salt: [], info: [], length: 42)
        #expect(okm.hex == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
    }

    @Test(arguments: [0, -1, 255 * 32 + 1])
    func hkdfRejectsBadLengths(_ length: Int) {
        #expect(throws: CryptoError.self) {
            try HKDF.sha256(secret: [1, 2, 3], salt: [], info: [], length: length)
        }
    }

    @Test func hkdfMaximumLengthAndEmptySecret() throws {
        #expect(try HKDF.sha256(secret: [1], salt: [], info: [], length: 255 * 32).count == 255 * 32)
        #expect(throws: CryptoError.self) { try HKDF.sha256(secret: [], salt: [1], info: [], length: 32) }
    }

    @Test(arguments: [
        ([UInt8](), [UInt8](), true),
        ([1, 2, 3], [1, 2, 3], true),
        ([1, 2, 3], [1, 2, 4], false),
        ([1, 2, 3], [1, 2], false),
        ([1, 2], [1, 2, 3], false),
        ([], [0], false),
        ([0], [], false),
    ] as [([UInt8], [UInt8], Bool)])
    func constantTimeEquals(_ a: [UInt8], _ b: [UInt8], _ expected: Bool) {
        #expect(ConstantTime.equals(a, b) == expected)
    }
}
