import LibCrypto
import Testing

@Suite("SigningKey and VerifyingKey")
struct SigningKeyTests {
    static let message = utf8("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxMjMifQ")

    static func signatureLength(_ algorithm: SigningAlgorithm) -> Int {
        algorithm == .rs256 ? 256 : 64
    }

    @Test(arguments: SigningAlgorithm.allCases)
    func generateSignVerify(_ algorithm: SigningAlgorithm) throws {
        let key = try SigningKey.generate(algorithm)
        #expect(key.algorithm == algorithm)
        let signature = try key.sign(Self.message)
        #expect(signature.count == Self.signatureLength(algorithm))
        let verifier = try key.verifyingKey()
        #expect(verifier.algorithm == algorithm)
        #expect(verifier.verify(signature: signature, message: Self.message))
        #expect(verifier.verify(signature: try key.sign([]), message: []))
    }

    @Test(arguments: SigningAlgorithm.allCases)
    func alteredMessageOrSignatureFails(_ algorithm: SigningAlgorithm) throws {
        let key = try SigningKey.generate(algorithm)
        let verifier = try key.verifyingKey()
        let signature = try key.sign(Self.message)
        var alteredMessage = Self.message
        alteredMessage[0] ^= 1
        #expect(!verifier.verify(signature: signature, message: alteredMessage))
        #expect(!verifier.verify(signature: signature, message: Self.message + [0]))
        for index in [0, signature.count / 2, signature.count - 1] {
            var alteredSignature = signature
            alteredSignature[index] ^= 0x40
            #expect(!verifier.verify(signature: alteredSignature, message: Self.message))
        }
        #expect(!verifier.verify(signature: Array(signature.dropLast()), message: Self.message))
        #expect(!verifier.verify(signature: signature + [0], message: Self.message))
        #expect(!verifier.verify(signature: [], message: Self.message))
        #expect(!verifier.verify(signature: [UInt8](repeating: 0, count: signature.count), message: Self.message))
        let otherKey = try SigningKey.generate(algorithm).verifyingKey()
        #expect(!otherKey.verify(signature: signature, message: Self.message))
    }

    @Test(arguments: SigningAlgorithm.allCases)
    func pemRoundTripKeepsKey(_ algorithm: SigningAlgorithm) throws {
        let key = try SigningKey.generate(algorithm)
        let pem = try key.privateKeyPEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let reloaded = try SigningKey(pem: pem)
        #expect(reloaded.algorithm == algorithm)
        #expect(try reloaded.thumbprint() == key.thumbprint())
        #expect(try reloaded.publicJWK() == key.publicJWK())
        #expect(try reloaded.privateKeyPEM() == pem)
        #expect(try key.verifyingKey().verify(signature: reloaded.sign(Self.message), message: Self.message))

        let publicPEM = try key.publicKeyPEM()
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let verifier = try VerifyingKey(pem: publicPEM)
        #expect(try verifier.publicJWK() == key.publicJWK())
        #expect(throws: CryptoError.self) { try SigningKey(pem: publicPEM) }
        #expect(throws: CryptoError.self) { try VerifyingKey(pem: pem) }
    }

    @Test(arguments: SigningAlgorithm.allCases)
    func jwkVerifyingKeyVerifiesSignatures(_ algorithm: SigningAlgorithm) throws {
        let key = try SigningKey.generate(algorithm)
        let jwk = try key.publicJWK()
        switch algorithm {
        case .ed25519: #expect(Set(jwk.keys) == ["kty", "crv", "x"] && jwk["kty"] == "OKP" && jwk["crv"] == "Ed25519")
        case .es256: #expect(Set(jwk.keys) == ["kty", "crv", "x", "y"] && jwk["kty"] == "EC" && jwk["crv"] == "P-256")
        case .rs256: #expect(Set(jwk.keys) == ["kty", "n", "e"] && jwk["kty"] == "RSA" && jwk["e"] == "AQAB")
        }
        let verifier = try VerifyingKey(jwk: jwk.merging(["alg": algorithm.rawValue, "kid": "k1", "use": "sig"]) { $1 })
        #expect(verifier.algorithm == algorithm)
        #expect(try verifier.publicJWK() == jwk)
        #expect(try verifier.thumbprint() == key.thumbprint())
        #expect(verifier.verify(signature: try key.sign(Self.message), message: Self.message))
    }

    @Test func traditionalPEMFormsAreAccepted() throws {
        let ec = try SigningKey(pem: Fixtures.ecTraditional)
        #expect(ec.algorithm == .es256)
        #expect(try ec.publicJWK() == VerifyingKey(pem: Fixtures.ecTraditionalPublic).publicJWK())
        let rsa = try SigningKey(pem: Fixtures.rsaTraditional)
        #expect(rsa.algorithm == .rs256)
        let rsaPublic = try VerifyingKey(pem: Fixtures.rsaTraditionalPublic)
        #expect(try rsa.publicJWK() == rsaPublic.publicJWK())
        #expect(rsaPublic.verify(signature: try rsa.sign(Self.message), message: Self.message))
        // Exported again as PKCS#8.
        #expect(try ec.privateKeyPEM().hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test(arguments: [
        ("P-384 curve", Fixtures.p384),
        ("RSA 1024", Fixtures.rsa1024),
        ("encrypted PKCS#8 (must not prompt)", Fixtures.encryptedEd25519),
        ("X25519", Fixtures.x25519),
        ("empty", ""),
        ("garbage", "-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n"),
    ])
    func unsupportedPrivateKeysAreRejected(_ name: String, _ pem: String) {
        #expect(throws: CryptoError.self, "\(name)") { try SigningKey(pem: pem) }
    }

    @Test func rawSeedMustBe32Bytes() {
        #expect(throws: CryptoError.self) { try SigningKey(rawEd25519Seed: [UInt8](repeating: 1, count: 31)) }
        #expect(throws: CryptoError.self) { try VerifyingKey(rawEd25519PublicKey: [UInt8](repeating: 1, count: 33)) }
    }

    /// ES256 needs exactly 64 raw bytes; DER or odd lengths are malformed.
    @Test func es256RejectsMalformedSignatures() throws {
        let key = try SigningKey.generate(.es256)
        let verifier = try key.verifyingKey()
        let signature = try key.sign(Self.message)
        #expect(!verifier.verify(signature: [UInt8](repeating: 0xFF, count: 64), message: Self.message))
        #expect(!verifier.verify(signature: [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01], message: Self.message))
        #expect(!verifier.verify(signature: Array(signature.prefix(32)) + Array(signature.prefix(32)), message: Self.message))
    }
}
