import Adapters
import LibCrypto
import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// Session tokens of the main auth server: algorithms, claims, attacks and malformed input.
@Suite struct SessionTokenVerifierTests {
    let auth: FakeAuthServer
    let clock = ManualClock()
    let verifier: SessionTokenVerifier

    init() throws {
        auth = try FakeAuthServer(serving: JWKSFixture.standard)
        verifier = try makeVerifier(auth, clock: clock)
    }

    // MARK: - Valid tokens

    @Test(arguments: [
        (TestKeys.ed25519, "ed-1", "user_alice"), (TestKeys.p256, "ec-1", "user_bob"),
        (TestKeys.rsa, "rsa-1", "user_carol"),
    ])
    func validTokenOfEachAlgorithmGivesThePrincipal(key: SigningKey, kid: String, user: String) throws {
        defer { auth.stop() }
        var claims = Mint.claims(at: clock.now(), subject: user)
        claims["amr"] = ["pwd", "otp"]
        claims["auth_time"] = .int(1_799_999_000)
        claims["acr"] = "urn:example:loa:2"
        claims["sid"] = .string("sid-\(user)")
        let principal = try verifier.verify(Mint.token(key, kid: kid, claims: claims))
        #expect(principal == Principal(
            subject: user, sessionID: "sid-\(user)", authenticationMethods: ["pwd", "otp"],
            authTime: Date(timeIntervalSince1970: 1_799_999_000), acr: "urn:example:loa:2",
            isStepUpCredential: false))
    }

    @Test func optionalClaimsMayBeAbsentAndNumericDatesMayBeFractional() throws {
        defer { auth.stop() }
        let now = clock.now().timeIntervalSince1970
        let claims: [String: JSONValue] = [
            "iss": .string(FakeAuthServer.issuer), "aud": [.string(FakeAuthServer.audience)], "sub": "user_dave",
            "exp": .double(now + 0.5), "iat": .double(now - 0.25), "auth_time": .double(now - 10.5),
        ]
        let principal = try verifier.verify(Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims))
        #expect(principal.subject == "user_dave")
        #expect(principal.sessionID == nil && principal.acr == nil && principal.authenticationMethods.isEmpty)
        #expect(principal.authTime == Date(timeIntervalSince1970: now - 10.5))
        #expect(!principal.isStepUpCredential)
    }

    @Test func hs256WithTheSharedSecret() throws {
        defer { auth.stop() }
        let hs = try SessionTokenVerifier(
            configuration: AuthCoreConfiguration(
                hs256Secret: TestKeys.hs256Secret, issuer: FakeAuthServer.issuer, audience: FakeAuthServer.audience),
            own: nil, clock: clock)
        let claims = Mint.claims(at: clock.now(), subject: "user_erin")
        let principal = try hs.verify(Mint.hs256(secret: Array(TestKeys.hs256Secret.utf8), kid: nil, claims: claims))
        #expect(principal.subject == "user_erin" && principal.sessionID == "sid_user_erin")
        // A kid does not matter for HS256: the only key is the secret.
        #expect(try hs.verify(Mint.hs256(secret: Array(TestKeys.hs256Secret.utf8), kid: "any", claims: claims))
            .subject == "user_erin")
        expectRejected(hs, Mint.hs256(secret: Array("another-secret-of-at-least-32-bytes!!".utf8), kid: nil, claims: claims),
                       "invalid token signature")
        // Without a JWKS source, asymmetric tokens have no key.
        expectRejected(hs, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims), "unknown token signing key")
        // And the JWKS-only verifier refuses HS256 altogether.
        expectRejected(verifier, Mint.hs256(secret: Array(TestKeys.hs256Secret.utf8), kid: nil, claims: claims),
                       "unsupported token algorithm")
    }

    // MARK: - Time claims

    @Test func expiredMissingExpiryNotYetValidAndIssuedInTheFuture() {
        defer { auth.stop() }
        let now = Int64(clock.now().timeIntervalSince1970)
        var claims = Mint.claims(at: clock.now())
        claims["exp"] = .int(now - 3600)
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims), "token expired")
        claims["exp"] = nil
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims), "token has no expiry")
        claims["exp"] = "2099-01-01"
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims), "malformed token claims")
        claims["exp"] = true
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims), "malformed token claims")

        claims = Mint.claims(at: clock.now())
        claims["nbf"] = .int(now + 3600)
        expectRejected(verifier, Mint.token(TestKeys.p256, kid: "ec-1", claims: claims), "token not yet valid")
        claims = Mint.claims(at: clock.now())
        claims["iat"] = .int(now + 3600)
        expectRejected(verifier, Mint.token(TestKeys.rsa, kid: "rsa-1", claims: claims), "token issued in the future")
        claims = Mint.claims(at: clock.now())
        claims["auth_time"] = "yesterday"
        expectRejected(verifier, Mint.token(TestKeys.rsa, kid: "rsa-1", claims: claims), "malformed token claims")
    }

    @Test func leewayIsHonouredExactlyAtTheEdges() throws {
        defer { auth.stop() }
        let now = Int64(clock.now().timeIntervalSince1970)
        func token(_ edits: [String: JSONValue]) -> String {
            var claims = Mint.claims(at: clock.now())
            for (name, value) in edits { claims[name] = value }
            return Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims)
        }
        // exp: valid while now < exp + 30.
        #expect(try verifier.verify(token(["exp": .int(now - 29)])).subject == "user_alice")
        expectRejected(verifier, token(["exp": .int(now - 30)]), "token expired")
        // nbf: valid once now >= nbf - 30.
        #expect(try verifier.verify(token(["nbf": .int(now + 30)])).subject == "user_alice")
        expectRejected(verifier, token(["nbf": .int(now + 31)]), "token not yet valid")
        // iat: at most 30 s in the future.
        #expect(try verifier.verify(token(["iat": .int(now + 30)])).subject == "user_alice")
        expectRejected(verifier, token(["iat": .int(now + 31)]), "token issued in the future")

        // The same token over time: exp = now + 600 stays valid while now < exp + 30.
        let live = token([:])
        clock.advance(629)
        #expect(try verifier.verify(live).subject == "user_alice")
        clock.advance(0.5)
        #expect(try verifier.verify(live).subject == "user_alice")
        clock.advance(0.5)
        expectRejected(verifier, live, "token expired")

        // Zero leeway is exact.
        let strictClock = ManualClock()
        let strict = try makeVerifier(auth, clock: strictClock, leeway: 0)
        let t = Int64(strictClock.now().timeIntervalSince1970)
        var claims = Mint.claims(at: strictClock.now())
        claims["exp"] = .int(t + 1)
        let expiring = Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims)
        #expect(try strict.verify(expiring).subject == "user_alice")
        strictClock.advance(1)
        expectRejected(strict, expiring, "token expired")
        claims = Mint.claims(at: strictClock.now())
        claims["nbf"] = .int(t + 2)
        expectRejected(strict, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims), "token not yet valid")
    }

    // MARK: - Issuer, audience, subject

    @Test func wrongOrMissingIssuerIsRefused() {
        defer { auth.stop() }
        var claims = Mint.claims(at: clock.now(), issuer: "https://evil.example")
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims), "wrong token issuer")
        claims["iss"] = nil
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims), "wrong token issuer")
        claims["iss"] = .int(1)
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims), "malformed token claims")
        // Case and trailing slashes matter (exact comparison).
        claims["iss"] = .string(FakeAuthServer.issuer + "/")
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims), "wrong token issuer")
    }

    @Test func audienceMustContainOursAsStringOrArray() throws {
        defer { auth.stop() }
        func token(_ audience: JSONValue?) -> String {
            var claims = Mint.claims(at: clock.now())
            claims["aud"] = audience
            return Mint.token(TestKeys.p256, kid: "ec-1", claims: claims)
        }
        expectRejected(verifier, token("another-service"), "wrong token audience")
        expectRejected(verifier, token(["another-service", "billing"]), "wrong token audience")
        expectRejected(verifier, token([]), "wrong token audience")
        expectRejected(verifier, token(nil), "wrong token audience")
        expectRejected(verifier, token(.int(7)), "malformed token claims")
        expectRejected(verifier, token(["phone-verify", .int(7)]), "malformed token claims")
        #expect(try verifier.verify(token(["billing", "phone-verify"])).subject == "user_alice")
        #expect(try verifier.verify(token("phone-verify")).subject == "user_alice")
    }

    @Test func withoutConfiguredIssuerAndAudienceAnyAreAccepted() throws {
        defer { auth.stop() }
        let lax = try SessionTokenVerifier(
            configuration: AuthCoreConfiguration(jwksURL: auth.jwksURL), own: nil, clock: clock)
        var claims = Mint.claims(at: clock.now(), issuer: "https://elsewhere", audience: "other")
        #expect(try lax.verify(Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims)).subject == "user_alice")
        claims["iss"] = nil
        claims["aud"] = nil
        #expect(try lax.verify(Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims)).subject == "user_alice")
        // Everything else is still checked.
        claims["exp"] = nil
        expectRejected(lax, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims), "token has no expiry")
    }

    @Test func subjectAndSessionClaimsAreTypeChecked() {
        defer { auth.stop() }
        let cases: [(String, JSONValue?, String)] = [
            ("sub", nil, "token has no subject"),
            ("sub", "", "token has no subject"),
            ("sub", .int(42), "malformed token claims"),
            ("sub", .string(String(repeating: "u", count: 257)), "malformed token claims"),
            ("sub", "user\nalice", "malformed token claims"),
            ("sid", .int(1), "malformed token claims"),
            ("amr", "pwd", "malformed token claims"),
            ("amr", ["pwd", .int(1)], "malformed token claims"),
            ("amr", .array(Array(repeating: "pwd", count: 33)), "malformed token claims"),
            ("acr", ["aal1"], "malformed token claims"),
        ]
        for (name, value, reason) in cases {
            var claims = Mint.claims(at: clock.now())
            claims[name] = value
            expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: claims), reason)
        }
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

    // MARK: - Configuration

    @Test func unusableConfigurationsAreRefusedAtInit() throws {
        defer { auth.stop() }
        func refused(_ configuration: AuthCoreConfiguration, own: OwnCredentials? = nil) -> Bool {
            do {
                _ = try SessionTokenVerifier(configuration: configuration, own: own, clock: clock)
                return false
            } catch is SessionTokenConfigurationError {
                return true
            } catch {
                return false
            }
        }
        #expect(refused(AuthCoreConfiguration()))
        #expect(refused(AuthCoreConfiguration(jwksURL: "", jwksFile: "", hs256Secret: "")))
        #expect(refused(AuthCoreConfiguration(hs256Secret: "too-short")))
        #expect(refused(AuthCoreConfiguration(jwksURL: auth.jwksURL, issuer: "")))
        #expect(refused(AuthCoreConfiguration(jwksURL: auth.jwksURL, leewaySeconds: -1)))
        #expect(refused(AuthCoreConfiguration(jwksURL: auth.jwksURL, jwksMaxAgeSeconds: 0)))
        #expect(refused(AuthCoreConfiguration(jwksFile: "/nonexistent/jwks.json")))
        let sameIssuer = OwnCredentials(issuer: FakeAuthServer.issuer, audience: "x", jwks: { [] })
        #expect(refused(AuthCoreConfiguration(jwksURL: auth.jwksURL, issuer: FakeAuthServer.issuer), own: sameIssuer))
        #expect(!refused(AuthCoreConfiguration(hs256Secret: TestKeys.hs256Secret)))
    }

    @Test func concurrentVerificationsAreSafe() throws {
        defer { auth.stop() }
        let tokens = (0..<30).map { index -> String in
            let keys = [(TestKeys.ed25519, "ed-1"), (TestKeys.p256, "ec-1"), (TestKeys.rsa, "rsa-1")]
            let (key, kid) = keys[index % 3]
            return Mint.token(key, kid: kid, claims: Mint.claims(at: clock.now(), subject: "user_\(index)"))
        }
        let verifier = self.verifier
        let results = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 300) { index in
            let ok = (try? verifier.verify(tokens[index % 30]))?.subject == "user_\(index % 30)"
            results.record(ok)
        }
        #expect(results.successes == 300)
        #expect(auth.requests == 1)
    }
}

/// Thread-safe success counter for concurrent tests.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var ok = 0
    private var failed = 0

    func record(_ success: Bool) {
        lock.lock()
        if success { ok += 1 } else { failed += 1 }
        lock.unlock()
    }

    var successes: Int {
        lock.lock()
        defer { lock.unlock() }
        return ok
    }

    var failures: Int {
        lock.lock()
        defer { lock.unlock() }
        return failed
    }
}
