import Credentials
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
