import Encoding
import Foundation
import LibCrypto
import Testing
import VerifyCore
import VerifyTesting
@testable import Challenges

/// Assertions: the real one of the fixture, then synthetic ones through the verifier.
@Suite struct AppAttestAssertionTests {
    static let appID = "ABCDE12345.com.example.app"
    let store = InMemoryStore()
    let device: SyntheticDevice
    let verifier: AppAttestVerifier
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var context: ChallengeContext { ChallengeContext(action: "start", phoneNumber: "+447700900123", clientIP: "192.0.2.1", now: now) }

    init() throws {
        device = try SyntheticDevice(appID: Self.appID)
        verifier = try AppAttestVerifier(
            appIDs: [Self.appID], environment: .production, ledger: store, nonceKey: [UInt8](repeating: 7, count: 32), random: SeededRandom())
        _ = try store.insertAttestedKey(device.attestedKey())
    }

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

    /// A fresh nonce and a valid submission for `context` at `counter`.
    func submission(counter: UInt32, binding: String? = nil, challenge: String? = nil) throws -> ChallengeSubmission {
        let nonce = try challenge ?? verifier.issueChallenge(now: now).challenge
        let clientData = SyntheticDevice.clientData(challenge: nonce, binding: binding ?? context.binding)
        return device.submission(token: try device.assertion(counter: counter, clientData: clientData), clientData: clientData)
    }

    @Test func theFixturesRealAssertionVerifiesWithItsKey() throws {
        let key = AttestedKey(
            keyID: AppAttestFixture.keyID, appID: AppAttestFixture.appID,
            publicKey: try VerifyingKey(pem: AppAttestFixture.publicKeyPEM).subjectPublicKeyInfo(), counter: 0, environment: "development",
            createdAt: AppAttestFixture.verifiedAt)
        let assertion = try AppAttestAssertion(cbor: Base64.decode(AppAttestFixture.assertionBase64) ?? [])
        #expect(try assertion.verify(clientData: Array(AppAttestFixture.challenge.utf8), key: key) == 1)
        #expect(refusal { _ = try assertion.verify(clientData: Array("wurzelpfropf!".utf8), key: key) }?.code == .challengeFailed)
    }

    @Test func aValidAssertionPassesAndAdvancesTheCounter() throws {
        let submission = try submission(counter: 1)
        let proof = try verifier.verify(submission, context: context)
        #expect(proof.provider == "app_attest")
        #expect(proof.replayKey.hasPrefix("nonce:"))
        #expect(proof.replayExpiresAt == now.addingTimeInterval(300))
        #expect(try store.attestedKey(id: device.keyID)?.counter == 1)
    }

    @Test func aReplayedCounterIsRefused() throws {
        _ = try verifier.verify(try submission(counter: 5), context: context)
        for counter: UInt32 in [5, 4, 0] {
            let error = refusal { _ = try verifier.verify(try submission(counter: counter), context: context) }
            #expect(error?.code == .challengeFailed)
            #expect(error?.message.contains("counter") == true)
        }
        _ = try verifier.verify(try submission(counter: 6), context: context)
    }

    @Test func anotherBindingIsRefused() throws {
        let resend = ChallengeContext(action: "resend", phoneNumber: "+447700900123", verificationID: "ver_1", clientIP: "", now: now)
        let error = refusal { _ = try verifier.verify(try submission(counter: 1), context: resend) }
        #expect(error?.message.contains("bound to another request") == true)
        let other = refusal { _ = try verifier.verify(try submission(counter: 1, binding: "phoneverify:start:+447700900999"), context: context) }
        #expect(other?.code == .challengeFailed)
        #expect(try store.attestedKey(id: device.keyID)?.counter == 0)
    }

    @Test func aReusedNonceIsRefusedByTheGate() throws {
        let gate = ChallengeGate(mode: .always, verifiers: [verifier], ledger: store)
        let nonce = try verifier.issueChallenge(now: now).challenge
        #expect(try gate.check(try submission(counter: 1, challenge: nonce), context: context) == .passed(provider: "app_attest"))
        guard case .failed(let error) = try gate.check(try submission(counter: 2, challenge: nonce), context: context) else {
            Issue.record("a second assertion over one nonce passed")
            return
        }
        #expect(error.code == .challengeFailed)
    }

    @Test func nonceAttestationAndAssertionShareOneReplayKey() throws {
        let nonce = try verifier.issueChallenge(now: now).challenge
        #expect(try store.consumeOnce(key: "app_attest|nonce:" + nonce, expiresAt: now.addingTimeInterval(300), now: now))
        let gate = ChallengeGate(mode: .always, verifiers: [verifier], ledger: store)
        #expect(try gate.check(try submission(counter: 1, challenge: nonce), context: context).passed == false)
    }

    @Test func forgedOrExpiredNoncesAreRefused() throws {
        let forged = Base64URL.encode([UInt8](repeating: 1, count: 40))
        #expect(refusal { _ = try verifier.verify(try submission(counter: 1, challenge: forged), context: context) }?.code == .challengeFailed)
        let late = ChallengeContext(action: "start", phoneNumber: "+447700900123", clientIP: "", now: now.addingTimeInterval(301))
        #expect(refusal { _ = try verifier.verify(try submission(counter: 1), context: late) }?.message.contains("expired") == true)
        let otherKey = try AppAttestVerifier(
            appIDs: [Self.appID], environment: .production, ledger: store, nonceKey: [UInt8](repeating: 8, count: 32), random: SeededRandom())
        #expect(refusal { _ = try otherKey.verify(try submission(counter: 1), context: context) }?.code == .challengeFailed)
    }

    @Test func aBadSignatureIsRefused() throws {
        let nonce = try verifier.issueChallenge(now: now).challenge
        let clientData = SyntheticDevice.clientData(challenge: nonce, binding: context.binding)
        let stranger = try SigningKey.generate(.es256)
        let forged = device.submission(token: try device.assertion(counter: 1, clientData: clientData, signWith: stranger), clientData: clientData)
        #expect(refusal { _ = try verifier.verify(forged, context: context) }?.message.contains("signature") == true)
        // Signed over other client data than was sent.
        let signedOther = try device.assertion(counter: 1, clientData: clientData + [0x20])
        #expect(refusal { _ = try verifier.verify(device.submission(token: signedOther, clientData: clientData), context: context) } != nil)
        // Another app's RP ID.
        let otherApp = try device.assertion(counter: 1, clientData: clientData, rpID: "ABCDE12345.com.example.other")
        #expect(refusal { _ = try verifier.verify(device.submission(token: otherApp, clientData: clientData), context: context) }?.code == .challengeFailed)
        #expect(try store.attestedKey(id: device.keyID)?.counter == 0)
    }

    @Test func unknownKeysAndKeysOfAnotherEnvironmentAreRefused() throws {
        let stranger = try SyntheticDevice(appID: Self.appID)
        let nonce = try verifier.issueChallenge(now: now).challenge
        let clientData = SyntheticDevice.clientData(challenge: nonce, binding: context.binding)
        let unknown = stranger.submission(token: try stranger.assertion(counter: 1, clientData: clientData), clientData: clientData)
        #expect(refusal { _ = try verifier.verify(unknown, context: context) }?.message.contains("not attested") == true)
        _ = try store.insertAttestedKey(stranger.attestedKey(environment: "development"))
        #expect(refusal { _ = try verifier.verify(unknown, context: context) }?.code == .challengeFailed)
    }

    @Test func malformedAndOversizedSubmissionsAreInvalidRequests() throws {
        let valid = try submission(counter: 1)
        let bombs: [[UInt8]] = [
            [0xa2, 0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], [UInt8](repeating: 0x81, count: 500), [0xbf, 0x61, 0x61, 0xff],
            [0xbb, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff], [0xa1, 0x00],
        ]
        var cases = bombs.map { ChallengeSubmission(provider: "app_attest", token: Base64.encode($0), fields: valid.fields) }
        cases.append(ChallengeSubmission(provider: "app_attest", token: String(repeating: "A", count: 1400), fields: valid.fields))
        cases.append(ChallengeSubmission(provider: "app_attest", token: "not base64!", fields: valid.fields))
        cases.append(ChallengeSubmission(provider: "app_attest", token: valid.token, fields: [:]))
        cases.append(ChallengeSubmission(provider: "app_attest", token: valid.token, fields: ["key_id": device.keyID]))
        cases.append(ChallengeSubmission(provider: "app_attest", token: valid.token, fields: ["key_id": "AAAA", "client_data": "e30"]))
        cases.append(ChallengeSubmission(
            provider: "app_attest", token: valid.token, fields: ["key_id": device.keyID, "client_data": String(repeating: "e", count: 257)]))
        cases.append(ChallengeSubmission(provider: "app_attest", token: valid.token, fields: ["key_id": device.keyID, "client_data": "e30"]))
        for submission in cases {
            #expect(refusal { _ = try verifier.verify(submission, context: context) }?.code == .invalidRequest)
        }
        #expect(try store.attestedKey(id: device.keyID)?.counter == 0)
    }
}
