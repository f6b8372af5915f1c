import Credentials
import LibCrypto
import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// Session tokens of the main auth server: keys, algorithm attacks and malformed tokens.
@Suite struct SessionTokenAlgorithmTests {
    let auth: FakeAuthServer
    let clock = ManualClock()
    let verifier: SessionTokenVerifier

    init() throws {
        auth = try FakeAuthServer(serving: JWKSFixture.standard)
        verifier = try makeVerifier(auth, clock: clock)
    }

    // MARK: - Keys and algorithms

    @Test func tokenSignedByAnotherKeyWithTheSameKidIsRefused() {
        defer { auth.stop() }
        let claims = Mint.claims(at: clock.now())
        expectRejected(verifier, Mint.token(TestKeys.otherEd25519, kid: "ed-1", claims: claims), "invalid token signature")
        expectRejected(verifier, Mint.token(TestKeys.otherP256, kid: "ec-1", claims: claims), "invalid token signature")
        expectRejected(verifier, Mint.token(TestKeys.otherRSA, kid: "rsa-1", claims: claims), "invalid token signature")
        // A valid token with a tampered payload.
        let good = Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims)
        var tamperedClaims = claims
        tamperedClaims["sub"] = "user_mallory"
        let parts = good.split(separator: ".").map(String.init)
        let tampered = parts[0] + "." + LibCrypto.Base64URL.encode(Mint.object(tamperedClaims).encoded()) + "." + parts[2]
        expectRejected(verifier, tampered, "invalid token signature")
        // Neither the wrong-key tokens nor the tampered one triggered a JWKS refresh.
        #expect(auth.requests == 1)
    }

    @Test func algNoneIsRefusedInEveryForm() {
        defer { auth.stop() }
        let claims = Mint.claims(at: clock.now())
        for alg in ["none", "None", "NONE", "nOnE"] {
            let unsigned = Mint.signingInput(header: ["alg": .string(alg), "typ": "JWT"], claims: claims) + "."
            expectRejected(verifier, unsigned, "unsupported token algorithm")
            let withKid = Mint.signingInput(header: ["alg": .string(alg), "kid": "ed-1"], claims: claims) + "."
            expectRejected(verifier, withKid, "unsupported token algorithm")
            // With a real signature appended it is still "none".
            expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", alg: alg, claims: claims),
                           "unsupported token algorithm")
        }
        // A supported alg with an empty signature.
        let empty = Mint.signingInput(header: ["alg": "EdDSA", "kid": "ed-1"], claims: claims) + "."
        expectRejected(verifier, empty, "missing signature")
        // No alg, or alg of the wrong type.
        expectRejected(verifier, Mint.raw(header: ["kid": "ed-1"], claims: claims, signature: [1]), "unsupported token algorithm")
        expectRejected(verifier, Mint.raw(header: ["alg": .int(0)], claims: claims, signature: [1]), "unsupported token algorithm")
        expectRejected(verifier, Mint.raw(header: ["alg": .null], claims: claims, signature: [1]), "unsupported token algorithm")
    }

    @Test func otherAlgorithmsAreRefused() {
        defer { auth.stop() }
        let claims = Mint.claims(at: clock.now())
        for alg in ["HS384", "HS512", "RS384", "RS512", "PS256", "ES384", "ES512", "ES256K", "Ed25519", "Ed448", "eddsa", "rs256", ""] {
            expectRejected(verifier, Mint.token(TestKeys.rsa, kid: "rsa-1", alg: alg, claims: claims), "unsupported token algorithm")
        }
    }

    @Test func hs256AlgorithmConfusionWithPublicKeyMaterialFails() throws {
        defer { auth.stop() }
        let claims = Mint.claims(at: clock.now(), subject: "user_mallory")
        var secrets: [[UInt8]] = []
        for key in [TestKeys.rsa, TestKeys.ed25519, TestKeys.p256] {
            secrets.append(Array(try key.publicKeyPEM().utf8))
            secrets.append(Array(try key.publicKeyPEM().trimmingCharacters(in: .whitespacesAndNewlines).utf8))
            secrets.append(JWKSFixture.document([JWKSFixture.jwk(key, kid: nil, declaresAlg: false, use: nil)]))
            let jwk = try key.publicJWK()
            secrets.append(Mint.object(jwk.mapValues { .string($0) }).encoded())
            secrets.append(Array(try key.thumbprint().utf8))
        }
        secrets.append(LibCrypto.Base64URL.decode(try TestKeys.ed25519.publicJWK()["x"]!)!)
        secrets.append(LibCrypto.Base64URL.decode(try TestKeys.rsa.publicJWK()["n"]!)!)
        secrets.append(JWKSFixture.document(JWKSFixture.standard))
        secrets.append([])

        // Without a shared secret, HS256 is never accepted.
        for secret in secrets {
            for kid in ["rsa-1", "ed-1", "ec-1", nil] {
                expectRejected(verifier, Mint.hs256(secret: secret, kid: kid, claims: claims), "unsupported token algorithm")
            }
        }
        // With a shared secret configured, only that secret works, never the public keys.
        let both = try makeVerifier(auth, clock: clock, hs256Secret: TestKeys.hs256Secret)
        for secret in secrets {
            for kid in ["rsa-1", "ed-1", nil] {
                expectRejected(both, Mint.hs256(secret: secret, kid: kid, claims: claims), "invalid token signature")
            }
        }
        #expect(try both.verify(Mint.hs256(secret: Array(TestKeys.hs256Secret.utf8), kid: nil, claims: claims))
            .subject == "user_mallory")
        #expect(try both.verify(Mint.token(TestKeys.rsa, kid: "rsa-1", claims: claims)).subject == "user_mallory")
    }

    @Test func headerAlgorithmMustMatchTheKeyType() {
        defer { auth.stop() }
        let claims = Mint.claims(at: clock.now())
        // ES256 header naming the Ed25519 key: signed with Ed25519, or with some P-256 key.
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", alg: "ES256", claims: claims),
                       "token algorithm does not match the key")
        expectRejected(verifier, Mint.token(TestKeys.p256, kid: "ed-1", claims: claims),
                       "token algorithm does not match the key")
        expectRejected(verifier, Mint.token(TestKeys.rsa, kid: "ec-1", claims: claims),
                       "token algorithm does not match the key")
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "rsa-1", claims: claims),
                       "token algorithm does not match the key")
        expectRejected(verifier, Mint.token(TestKeys.rsa, kid: "rsa-1", alg: "EdDSA", claims: claims),
                       "token algorithm does not match the key")
    }

    @Test func keyTypeDecidesTheAlgorithmWhenTheJWKDeclaresNone() throws {
        defer { auth.stop() }
        let server = try FakeAuthServer(serving: [
            JWKSFixture.jwk(TestKeys.ed25519, kid: "ed", declaresAlg: false, use: nil),
            JWKSFixture.jwk(TestKeys.p256, kid: "ec", declaresAlg: false, use: nil),
            JWKSFixture.jwk(TestKeys.rsa, kid: "rsa", declaresAlg: false, use: nil),
        ])
        defer { server.stop() }
        let v = try makeVerifier(server, clock: clock)
        let claims = Mint.claims(at: clock.now())
        // A genuine signature by the named key, but under another algorithm's name.
        for (key, kid) in [(TestKeys.ed25519, "ed"), (TestKeys.p256, "ec"), (TestKeys.rsa, "rsa")] {
            for alg in ["EdDSA", "ES256", "RS256"] where alg != key.algorithm.rawValue {
                expectRejected(v, Mint.token(key, kid: kid, alg: alg, claims: claims), "token algorithm does not match the key")
            }
            #expect(try v.verify(Mint.token(key, kid: kid, claims: claims)).subject == "user_alice")
        }
    }

    @Test func keysAreChosenByKidAndUnusableJWKsAreSkipped() throws {
        defer { auth.stop() }
        let server = try FakeAuthServer(serving: [
            ["kty": "oct", "k": "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA", "kid": "oct-1", "alg": "HS256"],
            ["kty": "OKP", "crv": "Ed25519", "x": "not-a-key", "kid": "bad-1"],
            ["kty": "EC", "crv": "P-384", "x": "AAAA", "y": "AAAA", "kid": "p384"],
            JWKSFixture.jwk(TestKeys.otherEd25519, kid: "enc-1", use: "enc"),
            JWKSFixture.jwk(TestKeys.p256, kid: "ec-1"),
            JWKSFixture.jwk(TestKeys.ed25519, kid: nil),
            JWKSFixture.jwk(TestKeys.rsa, kid: "rsa-noalg", declaresAlg: false, use: nil),
        ])
        defer { server.stop() }
        let v = try makeVerifier(server, clock: clock)
        let claims = Mint.claims(at: clock.now())
        #expect(try v.verify(Mint.token(TestKeys.p256, kid: "ec-1", claims: claims)).subject == "user_alice")
        #expect(try v.verify(Mint.token(TestKeys.rsa, kid: "rsa-noalg", claims: claims)).subject == "user_alice")
        // A key without kid verifies only tokens without kid …
        #expect(try v.verify(Mint.token(TestKeys.ed25519, kid: nil, claims: claims)).subject == "user_alice")
        // … and tokens without kid only use keys without kid.
        expectRejected(v, Mint.token(TestKeys.p256, kid: nil, claims: claims), "token algorithm does not match the key")
        expectRejected(v, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims), "unknown token signing key")
        // Encryption keys and keys that failed to parse are not there.
        expectRejected(v, Mint.token(TestKeys.otherEd25519, kid: "enc-1", claims: claims), "unknown token signing key")
        expectRejected(v, Mint.hs256(secret: Array("secret-secret-secret-secret-secret".utf8), kid: "oct-1", claims: claims),
                       "unsupported token algorithm")
        // The standard server's verifier: a token without kid finds no key without kid.
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: nil, claims: claims), "unknown token signing key")
    }

    // MARK: - Malformed tokens

    @Test func malformedTokensAreRefused() {
        defer { auth.stop() }
        let claims = Mint.claims(at: clock.now())
        let good = Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims)
        let parts = good.split(separator: ".").map(String.init)
        let headerJSON = LibCrypto.Base64URL.encode(Array(#"{"alg":"EdDSA","kid":"ed-1"}"#.utf8))
        let cases: [(String, String)] = [
            ("", "empty token"),
            (".", "malformed token"),
            ("..", "malformed token"),
            ("abc", "malformed token"),
            (parts[0] + "." + parts[1], "malformed token"),
            (good + ".", "malformed token"),
            (good + "." + parts[2], "malformed token"),
            (good + ".a.b", "malformed token"),
            ("." + parts[1] + "." + parts[2], "malformed token"),
            (parts[0] + ".." + parts[2], "malformed token"),
            ("Bearer " + good, "malformed token"),
            (good + " ", "malformed token"),
            (" " + good, "malformed token"),
            (parts[0] + "=." + parts[1] + "." + parts[2], "malformed token"),
            (parts[0] + "." + parts[1] + "." + parts[2] + "==", "malformed token"),
            (parts[0].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "+/."
                + parts[1] + "." + parts[2], "malformed token"),
            (Data(Array(#"{"alg":"EdDSA","kid":"ed-1"}"#.utf8)).base64EncodedString() + "." + parts[1] + "." + parts[2],
             "malformed token"),
            (parts[0] + "." + parts[1] + "." + parts[2] + "é", "malformed token"),
            (LibCrypto.Base64URL.encode(Array("not json".utf8)) + "." + parts[1] + "." + parts[2], "malformed token header"),
            (LibCrypto.Base64URL.encode(Array("[\"EdDSA\"]".utf8)) + "." + parts[1] + "." + parts[2], "malformed token header"),
            (LibCrypto.Base64URL.encode(Array("\"EdDSA\"".utf8)) + "." + parts[1] + "." + parts[2], "malformed token header"),
            (LibCrypto.Base64URL.encode(Array("{\"alg\":\"EdDSA\"".utf8)) + "." + parts[1] + "." + parts[2], "malformed token header"),
            (LibCrypto.Base64URL.encode([0xFF, 0xFE, 0x7B]) + "." + parts[1] + "." + parts[2], "malformed token header"),
            (headerJSON + "." + LibCrypto.Base64URL.encode(Array("not json".utf8)) + "." + parts[2], "malformed token claims"),
            (headerJSON + "." + LibCrypto.Base64URL.encode(Array("[1,2]".utf8)) + "." + parts[2], "malformed token claims"),
            (headerJSON + "." + LibCrypto.Base64URL.encode(Array("1800000000".utf8)) + "." + parts[2], "malformed token claims"),
            (LibCrypto.Base64URL.encode(Array(#"{"alg":"EdDSA","kid":7}"#.utf8)) + "." + parts[1] + "." + parts[2], "malformed token header"),
            (LibCrypto.Base64URL.encode(Array(#"{"alg":"EdDSA","kid":""}"#.utf8)) + "." + parts[1] + "." + parts[2], "malformed token header"),
            (String(repeating: "A", count: 20_000), "token too large"),
            (parts[0] + "." + LibCrypto.Base64URL.encode(Array(repeating: 0x20, count: 13_000)) + "." + parts[2], "token too large"),
        ]
        for (token, reason) in cases {
            expectRejected(verifier, token, reason)
        }
        // Truncated or extended signatures.
        expectRejected(verifier, parts[0] + "." + parts[1] + "." + String(parts[2].dropLast(2)), "invalid token signature")
        expectRejected(verifier, parts[0] + "." + parts[1] + "." + parts[2] + "AAAA", "invalid token signature")
        // A huge but otherwise valid token (padding claim) is refused before any crypto.
        var padded = claims
        padded["pad"] = .string(String(repeating: "p", count: 17_000))
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: padded), "token too large")
        // The valid one still works.
        #expect((try? verifier.verify(good))?.subject == "user_alice")
    }

    @Test func critHeaderIsRefused() {
        defer { auth.stop() }
        let claims = Mint.claims(at: clock.now())
        for crit: JSONValue in [["exp"], ["b64"], [], "exp", .null] {
            var extra: [String: JSONValue] = ["crit": crit]
            if crit == ["b64"] { extra["b64"] = false }
            expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims, extraHeader: extra),
                           "unsupported critical header")
        }
        // Unknown non-critical header parameters are ignored; jku/x5u/jwk never fetch or supply keys.
        let extra: [String: JSONValue] = [
            "jku": "http://127.0.0.1:1/evil.json", "x5u": "http://127.0.0.1:1/x", "cty": "JWT", "custom": 1,
        ]
        #expect((try? verifier.verify(Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims, extraHeader: extra)))?
            .subject == "user_alice")
        let embedded: [String: JSONValue] = ["jwk": Mint.object(try! TestKeys.otherEd25519.publicJWK().mapValues { .string($0) })]
        expectRejected(verifier, Mint.token(TestKeys.otherEd25519, kid: "ed-1", claims: claims, extraHeader: embedded),
                       "invalid token signature")
    }
}
