import LibCrypto
import Testing

/// One Ed25519 vector from RFC 8032 §7.1.
struct Ed25519Vector: Sendable, CustomTestStringConvertible {
    let name: String
    let seed: String
    let publicKey: String
    let message: String
    let signature: String
    var testDescription: String { name }
}

@Suite("JWK, thumbprints and published test vectors")
struct JWKTests {
    static let rfc8032: [Ed25519Vector] = [
        Ed25519Vector(
            name: "RFC 8032 TEST 1",
            seed: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            publicKey: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            message: "",
            signature: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        Ed25519Vector(
            name: "RFC 8032 TEST 2",
            seed: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            publicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            message: "72",
            signature: "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ]

    /// PKCS#8 PEM for an Ed25519 seed: fixed DER prefix, then the 32-byte seed.
    static func pkcs8PEM(seed: [UInt8]) -> String {
        let der = [UInt8](hex: "302e020100300506032b657004220420") + seed
        // 48 bytes of DER: standard base64 needs no padding, so map the URL alphabet.
        let base64 = String(Base64URL.encode(der).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        return "-----BEGIN PRIVATE KEY-----\n\(base64)\n-----END PRIVATE KEY-----\n"
    }

    @Test(arguments: rfc8032)
    func ed25519VectorViaPKCS8PEM(_ vector: Ed25519Vector) throws {
        let key = try SigningKey(pem: Self.pkcs8PEM(seed: [UInt8](hex: vector.seed)))
        #expect(key.algorithm == .ed25519)
        #expect(try key.sign([UInt8](hex: vector.message)).hex == vector.signature)
        #expect(try key.publicJWK()["x"] == Base64URL.encode([UInt8](hex: vector.publicKey)))
    }

    @Test(arguments: rfc8032)
    func ed25519VectorViaRawSeed(_ vector: Ed25519Vector) throws {
        let key = try SigningKey(rawEd25519Seed: [UInt8](hex: vector.seed))
        #expect(try key.sign([UInt8](hex: vector.message)).hex == vector.signature)
        let verifier = try VerifyingKey(rawEd25519PublicKey: [UInt8](hex: vector.publicKey))
        #expect(verifier.verify(signature: [UInt8](hex: vector.signature), message: [UInt8](hex: vector.message)))
    }

    /// RFC 7638 §3.1: the RSA key of RFC 7517 appendix A.1.
    @Test func rfc7638ThumbprintExample() throws {
        let key = try VerifyingKey(jwk: [
            "kty": "RSA",
            "n": "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3"
                + "oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6q"
                + "MQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
            "e": "AQAB",
            "alg": "RS256",
            "kid": "2011-04-29",
        ])
        #expect(key.algorithm == .rs256)
        #expect(try key.thumbprint() == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }

    /// RFC 8037 appendix A: Ed25519 JWK (A.1/A.2), thumbprint (A.3) and JWS signature (A.4).
    @Test func rfc8037Examples() throws {
        let key = try SigningKey(rawEd25519Seed: Base64URL.decode("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A")!)
        #expect(try key.publicJWK() == ["kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"])
        #expect(try key.thumbprint() == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")
        let signingInput = utf8("eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc")
        let signature = "hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"
        #expect(Base64URL.encode(try key.sign(signingInput)) == signature)
    }

    /// RFC 7515 appendix A.3: an ES256 JWS verified from its JWK.
    @Test func rfc7515ES256Example() throws {
        let key = try VerifyingKey(jwk: [
            "kty": "EC", "crv": "P-256",
            "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
            "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
        ])
        let signingInput = utf8("eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ")
        let signature = Base64URL.decode("DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q")!
        #expect(key.verify(signature: signature, message: signingInput))
        #expect(!key.verify(signature: signature, message: signingInput + [0x2E]))
    }

    static let ecX = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
    static let ecY = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
    static let okpX = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"

    @Test(arguments: [
        ("no kty", ["crv": "Ed25519", "x": okpX]),
        ("symmetric key", ["kty": "oct", "k": "AAAA"]),
        ("X25519 is not a signing curve", ["kty": "OKP", "crv": "X25519", "x": okpX]),
        ("OKP x too short", ["kty": "OKP", "crv": "Ed25519", "x": "AAAA"]),
        ("OKP x padded", ["kty": "OKP", "crv": "Ed25519", "x": okpX + "="]),
        ("alg mismatch", ["kty": "OKP", "crv": "Ed25519", "x": okpX, "alg": "ES256"]),
        ("P-384", ["kty": "EC", "crv": "P-384", "x": ecX, "y": ecY]),
        ("EC without y", ["kty": "EC", "crv": "P-256", "x": ecX]),
        ("EC point not on curve", ["kty": "EC", "crv": "P-256", "x": ecX, "y": ecX]),
        ("EC coordinate short", ["kty": "EC", "crv": "P-256", "x": "AAAA", "y": ecY]),
        ("RSA 512 bits", ["kty": "RSA", "n": Base64URL.encode([0xC1] + [UInt8](repeating: 0x55, count: 62) + [0x01]), "e": "AQAB"]),
        ("RSA without e", ["kty": "RSA", "n": Base64URL.encode([0xC1] + [UInt8](repeating: 0x55, count: 254) + [0x01])]),
        ("RSA even e", ["kty": "RSA", "n": Base64URL.encode([0xC1] + [UInt8](repeating: 0x55, count: 254) + [0x01]), "e": "AQAA"]),
    ] as [(String, [String: String])])
    func unsupportedJWKsAreRejected(_ name: String, _ jwk: [String: String]) {
        #expect(throws: CryptoError.self, "\(name)") { try VerifyingKey(jwk: jwk) }
    }
}
