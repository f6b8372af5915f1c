import Credentials
import CurlClient
import Foundation
import LibCrypto
import Testing
import VerifyCore
import VerifyTesting

@Suite struct GrantVerifierTests {
    static let issuer = "https://backend.example.test"
    static let audience = "https://verify.example.test"
    static let phone = "+14155552671"

    let clock = ManualClock()

    func verifier(secret: String? = TestKeys.hs256Secret, jwksURL: String? = nil) throws -> GrantVerifier {
        try GrantVerifier(
            configuration: GrantConfiguration(issuer: Self.issuer, audience: Self.audience, hs256Secret: secret, jwksURL: jwksURL),
            clock: clock, http: HTTPClient(configuration: HTTPClientConfiguration(connectTimeout: 2, totalTimeout: 3, allowedSchemes: ["http"])))
    }

    func claims(lifetime: Int64 = 120, issuedAgo: Int64 = 5) -> [String: JSONValue] {
        let iat = Int64(clock.now().timeIntervalSince1970) - issuedAgo
        return [
            "iss": .string(Self.issuer), "aud": .string(Self.audience), "phone_number": .string(Self.phone),
            "iat": .int(iat), "exp": .int(iat + lifetime), "jti": "grant-1", "action": "start",
        ]
    }

    func context(action: String = "start", phone: String = Self.phone) -> ChallengeContext {
        ChallengeContext(action: action, phoneNumber: phone, clientIP: "", now: clock.now())
    }

    func submit(_ token: String) -> ChallengeSubmission { ChallengeSubmission(provider: "grant", token: token) }

    func hs256(_ claims: [String: JSONValue], secret: String = TestKeys.hs256Secret) -> String {
        Mint.hs256(secret: Array(secret.utf8), kid: nil, claims: claims)
    }

    @Test func anHS256GrantPassesOnceAndIsRememberedUntilItExpires() throws {
        let v = try verifier()
        let c = claims()
        let proof = try v.verify(submit(hs256(c)), context: context())
        #expect(proof.provider == "grant")
        #expect(proof.replayKey == "jti:\(Self.issuer)|grant-1")
        // exp plus the leeway it is accepted within.
        #expect(proof.replayExpiresAt == Date(timeIntervalSince1970: TimeInterval(c["exp"]!.intValue! + 10)))
        #expect(v.publicParameters.isEmpty)
    }

    @Test func theActionClaimIsOptionalAndAudienceMayBeAList() throws {
        var c = claims()
        c["action"] = nil
        c["aud"] = ["other", .string(Self.audience)]
        _ = try verifier().verify(submit(hs256(c)), context: context(action: "resend"))
    }

    @Test func anES256GrantVerifiesWithTheBackendsJWKS() throws {
        let backend = try FakeAuthServer(serving: [JWKSFixture.jwk(TestKeys.p256, kid: "backend-1")])
        defer { backend.stop() }
        let v = try verifier(secret: nil, jwksURL: backend.jwksURL)
        _ = try v.verify(submit(Mint.token(TestKeys.p256, kid: "backend-1", claims: claims())), context: context())
        // A key the backend does not publish.
        expectFailed(v, Mint.token(TestKeys.otherP256, kid: "backend-1", claims: claims()), "signature")
        // HS256 is refused without a shared secret, even MACed with the published key.
        let publicPEM = try TestKeys.p256.publicKeyPEM()
        expectFailed(v, Mint.hs256(secret: Array(publicPEM.utf8), kid: "backend-1", claims: claims()), "algorithm")
    }

    @Test func algorithmConfusionIsRefused() throws {
        let backend = try FakeAuthServer(serving: [JWKSFixture.jwk(TestKeys.rsa, kid: "rsa-1")])
        defer { backend.stop() }
        let v = try verifier(jwksURL: backend.jwksURL)
        let jwk = JWKSFixture.jwk(TestKeys.rsa, kid: "rsa-1")
        // HS256 MACed with the RSA public key (PEM, JWK text): never the secret.
        for material in [try TestKeys.rsa.publicKeyPEM(), jwk["n"]!] {
            expectFailed(v, Mint.hs256(secret: Array(material.utf8), kid: "rsa-1", claims: claims()), "signature")
        }
        // An RS256 key named by a token that says ES256.
        expectFailed(v, Mint.token(TestKeys.rsa, kid: "rsa-1", alg: "ES256", claims: claims()))
        // An asymmetric grant to a verifier with only a secret.
        expectFailed(try verifier(), Mint.token(TestKeys.rsa, kid: "rsa-1", claims: claims()), "algorithm")
    }

    @Test func algNoneIsRefused() throws {
        let v = try verifier()
        let header: [String: JSONValue] = ["alg": "none", "typ": "JWT"]
        let unsigned = Mint.signingInput(header: header, claims: claims()) + "."
        expectFailed(v, unsigned, "algorithm")
        expectFailed(v, Mint.raw(header: header, claims: claims(), signature: [1, 2, 3]), "algorithm")
        expectFailed(v, Mint.hs256(secret: Array(TestKeys.hs256Secret.utf8), kid: nil, claims: claims(), alg: "HS512"), "algorithm")
    }

    @Test func everyClaimIsChecked() throws {
        let v = try verifier()
        var c: [String: JSONValue]
        c = claims(); c["phone_number"] = "+14155550000"
        expectFailed(v, hs256(c), "another phone number")
        c = claims(); c["phone_number"] = nil
        expectFailed(v, hs256(c), "no phone number")
        expectFailed(v, hs256(claims(lifetime: 60, issuedAgo: 71)), "expired")
        expectFailed(v, hs256(claims(lifetime: 301)), "longer than 300")
        expectFailed(v, hs256(claims(lifetime: 120, issuedAgo: -60)), "future")
        c = claims(); c["iss"] = "https://attacker.example"
        expectFailed(v, hs256(c), "issuer")
        c = claims(); c["aud"] = "https://other-service.example"
        expectFailed(v, hs256(c), "audience")
        c = claims(); c["aud"] = nil
        expectFailed(v, hs256(c), "audience")
        c = claims(); c["jti"] = nil
        expectFailed(v, hs256(c), "jti")
        c = claims(); c["jti"] = ""
        expectFailed(v, hs256(c), "jti")
        c = claims(); c["exp"] = nil
        expectFailed(v, hs256(c), "exp")
        c = claims(); c["iat"] = nil
        expectFailed(v, hs256(c), "iat")
        expectFailed(v, hs256(claims()), "another action", context: context(action: "resend"))
        expectFailed(v, hs256(claims(), secret: "another-secret-that-is-also-32-bytes-long"), "signature")
        // A forged grant learns nothing of what a valid one holds: its wrong issuer is not named.
        c = claims(); c["iss"] = "https://attacker.example"
        expectFailed(v, hs256(c, secret: "another-secret-that-is-also-32-bytes-long"), "signature")
    }

    @Test func hugeOrEmptyGrantsAreMalformedBeforeAnyWork() throws {
        let backend = try FakeAuthServer(serving: [JWKSFixture.jwk(TestKeys.p256, kid: "backend-1")])
        defer { backend.stop() }
        let v = try verifier(jwksURL: backend.jwksURL)
        let before = backend.requests
        var c = claims()
        c["pad"] = .string(String(repeating: "x", count: GrantVerifier.maxTokenBytes))
        for token in [hs256(c), ""] {
            let error = try #require(throws: VerifyError.self) { try v.verify(submit(token), context: context()) }
            #expect(error.code == .invalidRequest)
            #expect(error.details["field"] == "challenge.token")
        }
        // A grant whose claims fail costs the backend no JWKS request either.
        expectFailed(v, Mint.token(TestKeys.p256, kid: "unknown-kid", claims: claims(lifetime: 9999)))
        #expect(backend.requests == before)
    }

    @Test func anIncompleteConfigurationIsRefused() {
        #expect(throws: SessionTokenConfigurationError.self) {
            try GrantVerifier(configuration: GrantConfiguration(issuer: Self.issuer, audience: Self.audience), clock: clock, http: HTTPClient())
        }
        #expect(throws: SessionTokenConfigurationError.self) {
            try GrantVerifier(
                configuration: GrantConfiguration(issuer: "", audience: Self.audience, hs256Secret: TestKeys.hs256Secret), clock: clock,
                http: HTTPClient())
        }
    }

    private func expectFailed(
        _ v: GrantVerifier, _ token: String, _ reason: String? = nil, context: ChallengeContext? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try v.verify(submit(token), context: context ?? self.context())
            Issue.record("grant accepted", sourceLocation: sourceLocation)
        } catch let error as VerifyError {
            #expect(error.code == .challengeFailed, "\(error.message)", sourceLocation: sourceLocation)
            #expect(error.details["provider"] == "grant", sourceLocation: sourceLocation)
            for part in token.split(separator: ".") where part.count > 8 {
                #expect(!error.message.contains(part), sourceLocation: sourceLocation)
            }
            if let reason { #expect(error.message.contains(reason), "\(error.message)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }
}
