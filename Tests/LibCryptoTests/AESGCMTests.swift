import LibCrypto
import Testing

@Suite("AES-256-GCM")
struct AESGCMTests {
    let key = SecureRandom.bytes(32)

    @Test(arguments: [0, 1, 15, 16, 17, 1000])
    func roundTrip(plaintextLength: Int) throws {
        let plaintext = SecureRandom.bytes(plaintextLength)
        let box = try AESGCM.seal(plaintext, key: key, associatedData: utf8("header"))
        #expect(box.count == plaintextLength + 28)
        #expect(try AESGCM.open(box, key: key, associatedData: utf8("header")) == plaintext)
    }

    @Test func sealUsesFreshNonces() throws {
        let first = try AESGCM.seal(utf8("same"), key: key)
        let second = try AESGCM.seal(utf8("same"), key: key)
        #expect(first.prefix(12) != second.prefix(12))
        #expect(first != second)
    }

    @Test func everyTamperedByteIsDetected() throws {
        let box = try AESGCM.seal(utf8("attack at dawn"), key: key, associatedData: [7])
        for index in box.indices {
            var tampered = box
            tampered[index] ^= 0x01
            #expect(throws: CryptoError.authenticationFailed) {
                try AESGCM.open(tampered, key: key, associatedData: [7])
            }
        }
    }

    @Test func wrongKeyAssociatedDataOrTruncationFails() throws {
        let box = try AESGCM.seal(utf8("secret"), key: key, associatedData: [1])
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(box, key: SecureRandom.bytes(32), associatedData: [1]) }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(box, key: key, associatedData: [2]) }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(box, key: key) }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(Array(box.dropLast()), key: key, associatedData: [1]) }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(Array(box.prefix(27)), key: key) }
        #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open([], key: key) }
    }

    @Test(arguments: [0, 16, 31, 33])
    func rejectsWrongKeyLength(_ length: Int) {
        let badKey = [UInt8](repeating: 1, count: length)
        #expect(throws: CryptoError.self) { try AESGCM.seal([1], key: badKey) }
        #expect(throws: CryptoError.self) { try AESGCM.open([UInt8](repeating: 0, count: 40), key: badKey) }
    }

    @Test func knownAnswerFromNISTGCMSpec() throws {
        // "The Galois/Counter Mode of Operation (GCM)", McGrew & Viega, test case 15
        // (AES-256, 96-bit IV, no AAD); the box is nonce || ciphertext || tag.
        let key = [UInt8](hex: "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
        let nonce = [UInt8](hex: "cafebabefacedbaddecaf888")
        let plaintext = [UInt8](hex: """
            d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72
            1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255
            """)
        let ciphertext = [UInt8](hex: """
            522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa
            8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad
            """)
        let tag = [UInt8](hex: "b094dac5d93471bdec1a502270e3cc6c")
        #expect(try AESGCM.open(nonce + ciphertext + tag, key: key) == plaintext)
    }
}
