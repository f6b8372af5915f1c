import Credentials
import LibCrypto
import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// PhoneVerify's own step-up credentials presented back as bearer tokens.
@Suite struct SessionTokenOwnCredentialTests {
    static let ownIssuer = "https://verify.example.test"
    static let ownAudience = "https://auth.example.test/step-up"

    /// The own public keys, changeable by the test (rotation).
    final class OwnKeys: @unchecked Sendable {
        private let lock = NSLock()
        private var jwks: [[String: String]]
        init(_ jwks: [[String: String]]) { self.jwks = jwks }
        func set(_ jwks: [[String: String]]) {
            lock.lock()
            self.jwks = jwks
            lock.unlock()
        }
        func get() -> [[String: String]] {
            lock.lock()
            defer { lock.unlock() }
            return jwks
        }
    }

    let auth: FakeAuthServer
    let clock = ManualClock()
    let ownKeys = OwnKeys([JWKSFixture.jwk(TestKeys.own, kid: "own-1")])
    let verifier: SessionTokenVerifier

    init() throws {
        auth = try FakeAuthServer(serving: JWKSFixture.standard)
        let keys = ownKeys
        verifier = try makeVerifier(
            auth, clock: clock,
            own: OwnCredentials(issuer: Self.ownIssuer, audience: Self.ownAudience, jwks: { keys.get() }),
            hs256Secret: TestKeys.hs256Secret)
    }

    func stepUpClaims(subject: String = "user_alice") -> [String: JSONValue] {
        var claims = Mint.claims(at: clock.now(), subject: subject, issuer: Self.ownIssuer, audience: .string(Self.ownAudience))
        claims["amr"] = ["pwd", "sms", "mfa"]
        claims["acr"] = "aal2"
        claims["auth_time"] = .int(Int64(clock.now().timeIntervalSince1970))
        return claims
    }

    @Test func ownStepUpCredentialIsAcceptedAndMarked() throws {
        defer { auth.stop() }
        let principal = try verifier.verify(Mint.token(TestKeys.own, kid: "own-1", claims: stepUpClaims()))
        #expect(principal == Principal(
            subject: "user_alice", sessionID: "sid_user_alice", authenticationMethods: ["pwd", "sms", "mfa"],
            authTime: clock.now(), acr: "aal2", isStepUpCredential: true))
        // The main auth server's tokens are still plain sessions.
        let primary = try verifier.verify(Mint.token(TestKeys.ed25519, kid: "ed-1", claims: Mint.claims(at: clock.now())))
        #expect(!primary.isStepUpCredential)
    }

    @Test func ownKeyWithAnotherIssuerOrAudienceIsRefused() {
        defer { auth.stop() }
        var claims = stepUpClaims()
        claims["iss"] = "https://someone-else.example"
        expectRejected(verifier, Mint.token(TestKeys.own, kid: "own-1", claims: claims), "wrong token issuer")
        // Claiming the auth server's issuer (and audience) does not make our key one of its keys.
        claims = Mint.claims(at: clock.now())
        expectRejected(verifier, Mint.token(TestKeys.own, kid: "own-1", claims: claims), "unknown token signing key")
        // Our issuer with the main audience.
        claims = stepUpClaims()
        claims["aud"] = .string(FakeAuthServer.audience)
        expectRejected(verifier, Mint.token(TestKeys.own, kid: "own-1", claims: claims), "wrong token audience")
        claims["aud"] = nil
        expectRejected(verifier, Mint.token(TestKeys.own, kid: "own-1", claims: claims), "wrong token audience")
        // Without "mfa" in amr it is not a step-up credential.
        claims = stepUpClaims()
        claims["amr"] = ["pwd", "sms"]
        expectRejected(verifier, Mint.token(TestKeys.own, kid: "own-1", claims: claims), "not a step-up credential")
        claims["amr"] = nil
        expectRejected(verifier, Mint.token(TestKeys.own, kid: "own-1", claims: claims), "not a step-up credential")
        // Expired step-up credential.
        claims = stepUpClaims()
        claims["exp"] = .int(Int64(clock.now().timeIntervalSince1970) - 60)
        expectRejected(verifier, Mint.token(TestKeys.own, kid: "own-1", claims: claims), "token expired")
    }

    @Test func onlyOwnKeysMintStepUpCredentials() {
        defer { auth.stop() }
        // The auth server's keys (or anyone's) cannot mint a credential in our name.
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: stepUpClaims()), "unknown token signing key")
        expectRejected(verifier, Mint.token(TestKeys.otherEd25519, kid: "own-1", claims: stepUpClaims()),
                       "invalid token signature")
        expectRejected(verifier, Mint.token(TestKeys.p256, kid: "own-1", claims: stepUpClaims()),
                       "token algorithm does not match the key")
        // Nor the shared HS256 secret, nor HMAC with our public key.
        expectRejected(verifier, Mint.hs256(secret: Array(TestKeys.hs256Secret.utf8), kid: "own-1", claims: stepUpClaims()),
                       "unsupported token algorithm")
        expectRejected(verifier, Mint.hs256(secret: Array(try! TestKeys.own.publicKeyPEM().utf8), kid: "own-1",
                                            claims: stepUpClaims()), "unsupported token algorithm")
        // No JWKS refresh of the auth server is triggered by own-issuer tokens.
        #expect(auth.requests == 1)
    }

    @Test func ownKeyRotationIsFollowed() throws {
        defer { auth.stop() }
        let next = try SigningKey.generate(.es256)
        let nextToken = Mint.token(next, kid: "own-2", claims: stepUpClaims(subject: "user_bob"))
        expectRejected(verifier, nextToken, "unknown token signing key")
        ownKeys.set([JWKSFixture.jwk(TestKeys.own, kid: "own-1"), JWKSFixture.jwk(next, kid: "own-2")])
        #expect(try verifier.verify(nextToken).isStepUpCredential)
        ownKeys.set([JWKSFixture.jwk(next, kid: "own-2")])
        expectRejected(verifier, Mint.token(TestKeys.own, kid: "own-1", claims: stepUpClaims()), "unknown token signing key")
    }

    @Test func withoutOwnCredentialsOurIssuerIsJustAnotherIssuer() throws {
        defer { auth.stop() }
        let plain = try makeVerifier(auth, clock: clock)
        expectRejected(plain, Mint.token(TestKeys.own, kid: "own-1", claims: stepUpClaims()), "wrong token issuer")
    }

    @Test func credentialsFromTheRealIssuerVerify() throws {
        defer { auth.stop() }
        let signer = try JWTSigner(key: TestKeys.own)
        let ring = try StaticKeyRing(active: signer)
        let issuer = CredentialIssuer(
            issuer: Self.ownIssuer, audience: Self.ownAudience, lifetime: 300, keys: ring, random: SeededRandom())
        let published: @Sendable () -> [[String: String]] = {
            ring.publicJWKs().map { jwk in
                guard case .object(let members) = jwk else { return [:] }
                var fields: [String: String] = [:]
                for member in members { if let text = member.value.stringValue { fields[member.key] = text } }
                return fields
            }
        }
        let verifier = try makeVerifier(
            auth, clock: clock, own: OwnCredentials(issuer: Self.ownIssuer, audience: Self.ownAudience, jwks: published))
        let now = clock.now()
        let verification = Verification(
            id: "ver_1", phoneNumber: "+14155552671", display: "+1 415-555-2671", region: "US", countryCode: 1,
            locale: nil, purpose: .mfaStepUp, subject: "user_alice", sessionID: "sid_1", codeHash: [], codeLength: 6,
            maxAttempts: 5, maxSends: 5, createdAt: now, expiresAt: now.addingTimeInterval(300), lastSentAt: now,
            resendAvailableAt: now)
        let credential = try issuer.issue(
            subject: "user_alice", verification: verification, now: now, amr: ["pwd", "sms", "mfa"], acr: "aal2",
            sessionID: "sid_1")
        let principal = try verifier.verify(credential.token)
        #expect(principal == Principal(
            subject: "user_alice", sessionID: "sid_1", authenticationMethods: ["pwd", "sms", "mfa"],
            authTime: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)), acr: "aal2",
            isStepUpCredential: true))
        clock.advance(330)
        expectRejected(verifier, credential.token, "token expired")

        // A first-factor credential (same issuer, audience and key) is not a step-up credential.
        var signIn = verification
        signIn.purpose = .signIn  // first-factor credentials are issued for sign-in verifications only
        let firstFactor = try issuer.firstFactor(for: signIn, at: clock.now())
        expectRejected(verifier, firstFactor.token, "not a step-up credential")
    }
}
