import Credentials
import LibCrypto
import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// Introspection's check of PhoneVerify's own credentials, on real keys and real signatures.
@Suite struct OwnCredentialVerifierTests {
    static let issuerURL = "https://verify.example.test"
    static let audience = "main-auth"

    let clock = ManualClock()
    let signer = try! JWTSigner(key: TestKeys.own)
    let ring: StaticKeyRing
    let verifier: OwnCredentialVerifier
    let credentials: CredentialIssuer

    init() throws {
        ring = try StaticKeyRing(active: signer)
        let ring = self.ring
        verifier = OwnCredentialVerifier(
            own: OwnCredentials(issuer: Self.issuerURL, audience: Self.audience) {
                ring.publicJWKs().map { jwk in
                    guard case .object(let members) = jwk else { return [:] }
                    return Dictionary(uniqueKeysWithValues: members.compactMap { m in m.value.stringValue.map { (m.key, $0) } })
                }
            },
            clock: clock)
        credentials = CredentialIssuer(issuer: Self.issuerURL, audience: Self.audience, lifetime: 300, keys: ring, random: SeededRandom())
    }

    var verification: Verification {
        let now = clock.now()
        return Verification(
            id: "ver_1", phoneNumber: "+14155552671", display: "+1 415-555-2671", region: "US", countryCode: 1,
            locale: nil, purpose: .signIn, codeHash: [], codeLength: 6, maxAttempts: 5, maxSends: 5, createdAt: now,
            expiresAt: now.addingTimeInterval(300), lastSentAt: now, resendAvailableAt: now)
    }

    func rejected(_ token: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: VerifyError(.unauthenticated, reason), sourceLocation: sourceLocation) { try verifier.verify(token) }
    }

    func claims(_ token: String) -> [String: JSONValue] {
        let payload = LibCrypto.Base64URL.decode(String(token.split(separator: ".")[1]))!
        guard case .object(let members) = try! JSONValue.parse(payload) else { return [:] }
        return Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) })
    }

    @Test func firstFactorAndStepUpCredentialsVerifyWithTheirClaims() throws {
        let token = try credentials.firstFactor(for: verification, at: clock.now()).token
        let verified = try verifier.verify(token)
        #expect(verified.jti == claims(token)["jti"]?.stringValue && verified.jti.hasPrefix("jti_"))
        #expect(verified.expiresAt == Date(timeIntervalSince1970: clock.now().timeIntervalSince1970.rounded(.down) + 300))
        #expect(verified.claims["sub"] == "tel:+14155552671" && verified.claims["vid"] == "ver_1")
        let principal = Principal(subject: "user_alice", sessionID: "sid_1", authenticationMethods: ["pwd"], authTime: nil, acr: "aal1")
        let stepUp = try credentials.stepUp(for: principal, verification: verification, at: clock.now()).token
        #expect(try verifier.verify(stepUp).claims["acr"] == "aal2")
    }

    @Test func expiredNotYetValidAndOtherIssuersAreRefused() throws {
        let token = try credentials.firstFactor(for: verification, at: clock.now()).token
        // Replicas' clocks may differ by a few seconds: accepted up to the leeway past `exp`.
        clock.advance(300 + Double(OwnCredentialVerifier.leewaySeconds) - 1)
        #expect(try verifier.verify(token).jti.hasPrefix("jti_"))
        clock.advance(1)
        rejected(token, "token expired")
        let future = try credentials.firstFactor(for: verification, at: clock.now().addingTimeInterval(60)).token
        rejected(future, "token not yet valid")
        let other = CredentialIssuer(issuer: "https://other.example.test", audience: Self.audience, keys: ring, random: SeededRandom())
        rejected(try other.firstFactor(for: verification, at: clock.now()).token, "wrong token issuer")
        let elsewhere = CredentialIssuer(issuer: Self.issuerURL, audience: "someone-else", keys: ring, random: SeededRandom())
        rejected(try elsewhere.firstFactor(for: verification, at: clock.now()).token, "wrong token audience")
    }

    @Test func forgedAndAlteredTokensAreRefused() throws {
        let token = try credentials.firstFactor(for: verification, at: clock.now()).token
        var altered = claims(token)
        altered["sub"] = "tel:+14155550000"
        let parts = token.split(separator: ".")
        rejected(Mint.signingInput(header: ["alg": "EdDSA", "typ": "JWT", "kid": .string(signer.keyID)], claims: altered) + "." + parts[2], "invalid token signature")
        // A key that is not published, with or without our kid.
        rejected(Mint.token(TestKeys.otherEd25519, kid: signer.keyID, claims: claims(token)), "invalid token signature")
        rejected(Mint.token(TestKeys.otherEd25519, kid: "someone", claims: claims(token)), "unknown token signing key")
        // HS256 keyed with anything, or `none`, is never ours.
        rejected(Mint.hs256(secret: Array("a-shared-hs256-secret-of-at-least-32-bytes!".utf8), kid: signer.keyID, claims: claims(token)), "unsupported token algorithm")
        rejected(Mint.raw(header: ["alg": "none", "kid": .string(signer.keyID)], claims: claims(token), signature: [1]), "unsupported token algorithm")
        // A credential without a jti cannot be redeemed.
        var anonymous = claims(token)
        anonymous["jti"] = nil
        rejected(Mint.token(TestKeys.own, kid: signer.keyID, claims: anonymous), "token has no jti")
        rejected("not-a-token", "malformed token")
    }
}
