import Foundation
import LibCrypto
import Testing
import VerifyCore
@testable import Challenges

@Suite struct PlayIntegrityVerifierTests {
    @Test func aGenuineVerdictPassesAndItsTokenHashIsTheReplayKey() throws {
        let f = try PlayIntegrityFixture()
        defer { f.google.stop() }
        f.google.decode([.verdict(f.verdict())])
        let token = PlayIntegrityFixture.token()
        let proof = try f.verifier.verify(f.submission(token), context: f.context())
        #expect(proof.provider == "play_integrity")
        #expect(proof.replayKey == Hex.encode(Digest.sha256(Array(token.utf8))))
        #expect(proof.replayExpiresAt > f.clock.now())
        let call = try #require(f.google.lastDecode)
        #expect(call.path == "/v1/com.example.verify:decodeIntegrityToken")
        #expect(call.integrityToken == token)
        #expect(call.authorization?.hasPrefix("Bearer ya29.test-") == true)
        #expect(f.google.counts.refused == 0)
    }

    @Test func theRequestHashIsBase64URLOfTheSHA256OfTheBinding() {
        let binding = "phoneverify:start:+14155552671"
        #expect(PlayIntegrityPolicy.requestHash(for: binding) == Base64URL.encode(Digest.sha256(Array(binding.utf8))))
        #expect(PlayIntegrityPolicy.requestHash(for: binding).count == 43)
    }

    @Test func aClassicRequestIsBoundByItsNonce() throws {
        let f = try PlayIntegrityFixture()
        defer { f.google.stop() }
        f.google.decode([.verdict(f.verdict(hashMember: "nonce"))])
        _ = try f.verifier.verify(f.submission(), context: f.context())
    }

    @Test func aResendIsBoundToItsVerification() throws {
        let f = try PlayIntegrityFixture()
        defer { f.google.stop() }
        let resend = ChallengeContext(action: "resend", phoneNumber: PlayIntegrityFixture.phone, verificationID: "VE123", clientIP: "", now: f.clock.now())
        f.google.decode([.verdict(f.verdict(binding: resend.binding)), .verdict(f.verdict())])
        _ = try f.verifier.verify(f.submission(), context: resend)
        // A start's token does not pass for the resend.
        expectFailed(f, context: resend)
    }

    @Test func theAccessTokenIsCachedUntilShortlyBeforeItExpires() throws {
        let f = try PlayIntegrityFixture()
        defer { f.google.stop() }
        f.google.decode([], fallback: .verdict(f.verdict(age: 0)))
        _ = try f.verifier.verify(f.submission(), context: f.context())
        _ = try f.verifier.verify(f.submission(), context: f.context())
        #expect(f.google.counts.tokens == 1)
        f.clock.advance(3599 - 30)
        f.google.decode([], fallback: .verdict(f.verdict(age: 0)))
        _ = try f.verifier.verify(f.submission(), context: f.context())
        #expect(f.google.counts.tokens == 2)
    }

    @Test func aRevokedAccessTokenIsReplacedOnce() throws {
        let f = try PlayIntegrityFixture()
        defer { f.google.stop() }
        f.google.decode([], fallback: .verdict(f.verdict()))
        _ = try f.verifier.verify(f.submission(), context: f.context())
        f.google.revokeAccessTokens()
        _ = try f.verifier.verify(f.submission(), context: f.context())
        #expect(f.google.counts.tokens == 2)
        #expect(f.google.counts.decodes == 3)
    }

    enum Refusal: String, CaseIterable {
        case wrongPackage, wrongDigest, wrongHash, otherAction, noBinding, stale, future, basicDevice, noDevice, unrecognisedVersion, unevaluated
    }

    @Test(arguments: Refusal.allCases)
    func everyFailedCheckIsAChallengeFailure(_ refusal: Refusal) throws {
        let f = try PlayIntegrityFixture()
        defer { f.google.stop() }
        let verdict: JSONValue
        switch refusal {
        case .wrongPackage: verdict = f.verdict(package: "com.attacker.app")
        case .wrongDigest: verdict = f.verdict(certificate: Digest.sha256(Array("re-signed".utf8)))
        case .wrongHash: verdict = f.verdict(binding: "phoneverify:start:+14155550000")
        case .otherAction: verdict = f.verdict(binding: f.context(action: "resend").binding)
        case .noBinding: verdict = f.verdict(hashMember: "somethingElse")
        case .stale: verdict = f.verdict(age: 121)
        case .future: verdict = f.verdict(age: -120)
        case .basicDevice: verdict = f.verdict(device: ["MEETS_BASIC_INTEGRITY"])
        case .noDevice: verdict = f.verdict(device: [])
        case .unrecognisedVersion: verdict = f.verdict(appVerdict: "UNRECOGNIZED_VERSION")
        case .unevaluated: verdict = f.verdict(appVerdict: "UNEVALUATED")
        }
        f.google.decode([.verdict(verdict)])
        let reasons: [Refusal: String] = [
            .wrongPackage: "another app", .wrongDigest: "accepted certificate", .wrongHash: "another request",
            .otherAction: "another request", .noBinding: "no request", .stale: "too old", .future: "in the future",
            .basicDevice: "device", .noDevice: "device", .unrecognisedVersion: "not recognised", .unevaluated: "not recognised",
        ]
        expectFailed(f, context: f.context(), reason: reasons[refusal])
    }

    @Test func aStrongerDeviceLabelSatisfiesAWeakerRequirement() throws {
        let f = try PlayIntegrityFixture(deviceVerdict: "MEETS_DEVICE_INTEGRITY")
        defer { f.google.stop() }
        f.google.decode([.verdict(f.verdict(device: ["MEETS_STRONG_INTEGRITY"]))])
        _ = try f.verifier.verify(f.submission(), context: f.context())
        let strict = try PlayIntegrityFixture(deviceVerdict: "MEETS_STRONG_INTEGRITY")
        defer { strict.google.stop() }
        strict.google.decode([.verdict(strict.verdict(device: ["MEETS_BASIC_INTEGRITY", "MEETS_DEVICE_INTEGRITY"]))])
        expectFailed(strict, context: strict.context())
    }

    @Test(arguments: [(400, ErrorCode.challengeFailed), (401, .unavailable), (403, .unavailable), (404, .unavailable),
                      (429, .unavailable), (500, .unavailable), (503, .unavailable)])
    func googleErrorsAreFailuresOrUnavailable(status: Int, code: ErrorCode) throws {
        let f = try PlayIntegrityFixture()
        defer { f.google.stop() }
        f.google.decode([], fallback: .status(status))
        #expect(throws: VerifyError.self) { try f.verifier.verify(f.submission(), context: f.context()) }
        do { _ = try f.verifier.verify(f.submission(), context: f.context()) } catch let error as VerifyError { #expect(error.code == code) }
    }

    @Test func aTokenEndpointThatRefusesMakesTheProviderUnavailableWithoutADecode() throws {
        let f = try PlayIntegrityFixture()
        defer { f.google.stop() }
        f.google.failTokens(400)
        let error = try #require(throws: VerifyError.self) { try f.verifier.verify(f.submission(), context: f.context()) }
        #expect(error.code == .unavailable)
        #expect(f.google.counts.decodes == 0)
    }

    @Test func anUnreachableGoogleIsUnavailable() throws {
        let f = try PlayIntegrityFixture()
        f.google.stop()
        let error = try #require(throws: VerifyError.self) { try f.verifier.verify(f.submission(), context: f.context()) }
        #expect(error.code == .unavailable)
    }

    @Test(arguments: [String(repeating: "A", count: PlayIntegrityVerifier.maxTokenBytes + 1), "", "not a token!", "abc\u{0}def"])
    func malformedTokensAreRefusedWithoutACall(token: String) throws {
        let f = try PlayIntegrityFixture()
        defer { f.google.stop() }
        let error = try #require(throws: VerifyError.self) { try f.verifier.verify(f.submission(token), context: f.context()) }
        #expect(error.code == .invalidRequest)
        #expect(error.details["field"] == .string("challenge.token"))
        #expect(f.google.counts.tokens == 0 && f.google.counts.decodes == 0)
    }

    @Test func withSeveralAppsTheClientNamesItsPackage() throws {
        let f = try PlayIntegrityFixture(packages: [PlayIntegrityFixture.package, "com.example.other"])
        defer { f.google.stop() }
        let missing = try #require(throws: VerifyError.self) { try f.verifier.verify(f.submission(), context: f.context()) }
        #expect(missing.code == .invalidRequest)
        let foreign = try #require(throws: VerifyError.self) {
            try f.verifier.verify(f.submission(fields: ["package_name": "com.attacker.app"]), context: f.context())
        }
        #expect(foreign.code == .challengeFailed)
        let injected = try #require(throws: VerifyError.self) {
            try f.verifier.verify(f.submission(fields: ["package_name": "com.example.other/../x"]), context: f.context())
        }
        #expect(injected.code == .invalidRequest)
        #expect(f.google.counts.decodes == 0)
        f.google.decode([.verdict(f.verdict(package: "com.example.other"))])
        _ = try f.verifier.verify(f.submission(fields: ["package_name": "com.example.other"]), context: f.context())
        #expect(f.google.lastDecode?.path == "/v1/com.example.other:decodeIntegrityToken")
    }

    @Test func publicParametersHoldNoSecret() throws {
        let f = try PlayIntegrityFixture(cloudProjectNumber: "123456789012")
        defer { f.google.stop() }
        #expect(f.verifier.publicParameters == ["cloud_project_number": "123456789012"])
        #expect(try PlayIntegrityFixture().verifier.publicParameters.isEmpty)
    }

    private func expectFailed(
        _ f: PlayIntegrityFixture, context: ChallengeContext, reason: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let token = PlayIntegrityFixture.token()
        do {
            _ = try f.verifier.verify(f.submission(token), context: context)
            Issue.record("verdict accepted", sourceLocation: sourceLocation)
        } catch let error as VerifyError {
            #expect(error.code == .challengeFailed, sourceLocation: sourceLocation)
            #expect(error.details["provider"] == .string("play_integrity"), sourceLocation: sourceLocation)
            #expect(!error.message.contains(token), sourceLocation: sourceLocation)
            if let reason { #expect(error.message.contains(reason), "\(error.message)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }
}
