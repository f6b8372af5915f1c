import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// Introspection says "active" once per credential, and never for a credential that fails its check.
@Suite struct CredentialIntrospectorTests {
    let t = TestService()

    var introspector: CredentialIntrospector {
        CredentialIntrospector(verifier: FakeCredentialVerifier(clock: t.clock), redemptions: t.store, random: t.random)
    }

    func credential() throws -> Credential {
        let issuer = CredentialIssuer(issuer: "http://issuer.test", audience: "main-auth", keys: FakeSigner(), random: t.random)
        let now = t.clock.now()
        let verification = Verification(
            id: "ver_1", phoneNumber: "+15555550123", display: "+1 555-555-0123", region: "US", countryCode: 1, locale: nil,
            purpose: .signIn, codeHash: [], codeLength: 6, maxAttempts: 5, maxSends: 5, createdAt: now,
            expiresAt: now.addingTimeInterval(300), lastSentAt: now, resendAvailableAt: now)
        return try issuer.firstFactor(for: verification, at: now)
    }

    @Test func aCredentialIsActiveOnceThenRedeemed() throws {
        let token = try credential().token
        let first = try #require(try introspector.introspect(token))
        #expect(first.claims["sub"] == "tel:+15555550123" && first.jti.hasPrefix("jti_"))
        #expect(try introspector.introspect(token) == nil)
        // Another introspector on the same store (another replica) agrees.
        #expect(try CredentialIntrospector(verifier: FakeCredentialVerifier(clock: t.clock), redemptions: t.store, random: t.random).introspect(token) == nil)
    }

    @Test func invalidOrExpiredCredentialsAreInactiveAndNotRedeemed() throws {
        #expect(try introspector.introspect("a.b.c") == nil)
        let token = try credential().token
        t.clock.advance(301)
        #expect(try introspector.introspect(token) == nil)
        // An expired credential was not recorded: the store has nothing to remember about it.
        let jti = try FakeCredentialVerifier(clock: ManualClock(t.clock.now().addingTimeInterval(-301))).verify(token).jti
        #expect(try t.store.redeem(jti: jti, expiresAt: t.clock.now(), attempt: "red_other"))
    }

    @Test func aStoreFailureIsAnErrorNotAnInactiveAnswer() throws {
        let token = try credential().token
        let broken = CredentialIntrospector(verifier: FakeCredentialVerifier(clock: t.clock), redemptions: FailingRedemptions(), random: t.random)
        #expect(throws: FailingRedemptions.Down.self) { try broken.introspect(token) }
    }
}
