import Encoding
import Foundation
import LibCrypto
import Testing
import VerifyCore
import VerifyTesting
@testable import Challenges

/// Registering a key: the real attestation end to end (its nonce, "wurzelpfropf", was not issued
/// by us, so these tests accept it through `FixtureNonces`), then the nonce checks of the real
/// nonces.
@Suite struct AppAttestRegistrationTests {
    /// Accepts the fixture's challenge as if this service had issued it.
    struct FixtureNonces: AppAttestNonceChecking {
        func issue(now: Date) -> AppAttestChallenge { AppAttestChallenge(challenge: AppAttestFixture.challenge, expiresAt: now) }
        func validate(_ nonce: String, now: Date) -> Date? { nonce == AppAttestFixture.challenge ? now.addingTimeInterval(300) : nil }
    }

    let store = InMemoryStore()

    func fixtureVerifier(environment: AppAttestEnvironment = .development) throws -> AppAttestVerifier {
        AppAttestVerifier(
            attestation: AppAttestAttestation(
                appIDs: [AppAttestFixture.appID], environment: environment, root: try X509Certificate(pem: AppleAppAttestRoot.pem)),
            ledger: store, nonces: FixtureNonces())
    }

    static let registration = AppAttestRegistration(
        keyID: AppAttestFixture.keyID, attestation: AppAttestFixture.attestationBase64, challenge: AppAttestFixture.challenge)

    func refusal(_ body: () throws -> Void) -> VerifyError? {
        do {
            try body()
            return nil
        } catch let error as VerifyError {
            return error
        } catch {
            return VerifyError(.internalError, "\(error)")
        }
    }

    @Test func aRealAttestationRegistersItsKeyOnce() throws {
        let verifier = try fixtureVerifier()
        let key = try verifier.register(Self.registration, now: AppAttestFixture.verifiedAt)
        #expect(key.keyID == AppAttestFixture.keyID)
        #expect(key.appID == AppAttestFixture.appID)
        #expect(key.environment == "development")
        #expect(key.counter == 0)
        #expect(try store.attestedKey(id: AppAttestFixture.keyID) == key)
        // The nonce is spent: the same attestation again is refused.
        let again = refusal { _ = try verifier.register(Self.registration, now: AppAttestFixture.verifiedAt) }
        #expect(again?.code == .challengeFailed)
        #expect(again?.message.contains("already used") == true)
    }

    @Test func anAlreadyAttestedKeyIsRefused() throws {
        let earlier = AttestedKey(
            keyID: AppAttestFixture.keyID, appID: AppAttestFixture.appID, publicKey: [1], counter: 9, environment: "development",
            createdAt: AppAttestFixture.verifiedAt)
        #expect(try store.insertAttestedKey(earlier))
        let error = refusal { _ = try fixtureVerifier().register(Self.registration, now: AppAttestFixture.verifiedAt) }
        #expect(error?.code == .challengeFailed)
        #expect(error?.message.contains("already attested") == true)
        #expect(try store.attestedKey(id: AppAttestFixture.keyID) == earlier)
    }

    @Test func theWrongEnvironmentOrTimeRegistersNothing() throws {
        #expect(refusal { _ = try fixtureVerifier(environment: .production).register(Self.registration, now: AppAttestFixture.verifiedAt) } != nil)
        #expect(refusal { _ = try fixtureVerifier().register(Self.registration, now: Date(timeIntervalSince1970: 1_800_000_000)) } != nil)
        #expect(try store.attestedKey(id: AppAttestFixture.keyID) == nil)
        // Refused attestations leave the nonce unspent.
        #expect(try fixtureVerifier().register(Self.registration, now: AppAttestFixture.verifiedAt).keyID == AppAttestFixture.keyID)
    }

    @Test func aNonceWeIssuedButTheAttestationDoesNotNameIsRefused() throws {
        let verifier = try AppAttestVerifier(
            appIDs: [AppAttestFixture.appID], environment: .development, ledger: store, nonceKey: [UInt8](repeating: 3, count: 32),
            random: SeededRandom())
        let issued = try verifier.issueChallenge(now: AppAttestFixture.verifiedAt)
        #expect(issued.challenge.utf8.count == 54)
        #expect(issued.expiresAt == AppAttestFixture.verifiedAt.addingTimeInterval(300))
        let registration = AppAttestRegistration(
            keyID: AppAttestFixture.keyID, attestation: AppAttestFixture.attestationBase64, challenge: issued.challenge)
        let error = refusal { _ = try verifier.register(registration, now: AppAttestFixture.verifiedAt) }
        #expect(error?.message.contains("not for this challenge") == true)
        // The fixture's own challenge is no nonce of ours.
        let foreign = refusal { _ = try verifier.register(Self.registration, now: AppAttestFixture.verifiedAt) }
        #expect(foreign?.message.contains("not one this service issued") == true)
    }

    @Test func oversizedAndMalformedRegistrationsAreInvalidRequests() throws {
        let verifier = try fixtureVerifier()
        let bombs: [[UInt8]] = [
            [0xa3, 0x63, 0x66, 0x6d, 0x74, 0x7b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], [UInt8](repeating: 0x9f, count: 2000),
            [UInt8](repeating: 0xc1, count: 4000) + [0], [0xbb, 0, 0, 0, 1, 0, 0, 0, 0],
        ]
        var cases = bombs.map { AppAttestRegistration(keyID: AppAttestFixture.keyID, attestation: Base64.encode($0), challenge: AppAttestFixture.challenge) }
        cases.append(AppAttestRegistration(
            keyID: AppAttestFixture.keyID, attestation: Base64.encode([UInt8](repeating: 0, count: 8 * 1024 + 1)), challenge: AppAttestFixture.challenge))
        cases.append(AppAttestRegistration(keyID: AppAttestFixture.keyID, attestation: "***", challenge: AppAttestFixture.challenge))
        cases.append(AppAttestRegistration(keyID: "c2hvcnQ=", attestation: AppAttestFixture.attestationBase64, challenge: AppAttestFixture.challenge))
        cases.append(AppAttestRegistration(
            keyID: AppAttestFixture.keyID, attestation: AppAttestFixture.attestationBase64, challenge: String(repeating: "n", count: 257)))
        // Refused before the nonce is looked at, whatever the nonce.
        let real = try AppAttestVerifier(
            appIDs: [AppAttestFixture.appID], environment: .development, ledger: store, nonceKey: [UInt8](repeating: 3, count: 32),
            random: SeededRandom())
        for registration in cases {
            #expect(refusal { _ = try verifier.register(registration, now: AppAttestFixture.verifiedAt) }?.code == .invalidRequest)
            #expect(refusal { _ = try real.register(registration, now: AppAttestFixture.verifiedAt) }?.code == .invalidRequest)
        }
        #expect(try store.attestedKey(id: AppAttestFixture.keyID) == nil)
    }
}
