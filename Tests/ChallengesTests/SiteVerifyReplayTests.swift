import Foundation
import Testing
import VerifyCore
import VerifyTesting
@testable import Challenges

/// The vendor says yes twice (as Turnstile does for a retried idempotency key): the ledger is
/// what refuses the second use.
@Suite struct SiteVerifyReplayTests {
    typealias F = SiteVerifyFixture

    @Test func aTokenUsedTwiceIsARefusedReplay() throws {
        let vendor = try FakeSiteVerifyVendor(.json(#"{"success":true,"challenge_ts":"\#(F.timestamp(1))","hostname":"app.example.com"}"#))
        defer { vendor.stop() }
        let turnstile = TurnstileVerifier(siteKey: "site", secret: "secret", url: vendor.base, http: F.http())
        let gate = ChallengeGate(mode: .always, verifiers: [turnstile], ledger: InMemoryStore())
        #expect(try gate.check(F.submission("turnstile"), context: F.context) == .passed(provider: "turnstile"))
        let replay = try gate.check(F.submission("turnstile"), context: F.context)
        guard case .failed(let error) = replay else {
            Issue.record("a replay passed: \(replay)")
            return
        }
        #expect(error.code == .challengeFailed)
        #expect(vendor.requests.count == 2)
        // Another token is another proof.
        #expect(try gate.check(F.submission("turnstile", token: "another"), context: F.context) == .passed(provider: "turnstile"))
    }

    @Test func aMalformedTokenIsAnInvalidRequestNotAFailure() throws {
        let vendor = try FakeSiteVerifyVendor(.json(#"{"success":true}"#))
        defer { vendor.stop() }
        let hcaptcha = HCaptchaVerifier(siteKey: "site", secret: "secret", url: vendor.base, http: F.http())
        let gate = ChallengeGate(mode: .always, verifiers: [hcaptcha], ledger: InMemoryStore())
        let error = #expect(throws: VerifyError.self) {
            try gate.check(F.submission("hcaptcha", token: String(repeating: "x", count: 5000)), context: F.context)
        }
        #expect(error?.code == .invalidRequest)
        #expect(vendor.requests.isEmpty)
    }
}
