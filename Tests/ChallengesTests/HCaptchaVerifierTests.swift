import Foundation
import Testing
import VerifyCore
@testable import Challenges

@Suite struct HCaptchaVerifierTests {
    typealias F = SiteVerifyFixture

    func verifier(_ vendor: FakeSiteVerifyVendor, hostnames: [String] = [], maximumRiskScore: Double? = nil) -> HCaptchaVerifier {
        HCaptchaVerifier(
            siteKey: "10000000-ffff-ffff-ffff-000000000001", secret: "0x-secret", url: vendor.base + "/siteverify", hostnames: hostnames,
            maximumRiskScore: maximumRiskScore, http: F.http())
    }

    func passed(hostname: String = "app.example.com", score: String? = nil, age: TimeInterval = 5) -> String {
        let scored = score.map { #","score":\#($0)"# } ?? ""
        return #"{"success":true,"challenge_ts":"\#(F.timestamp(age))","hostname":"\#(hostname)","credit":false\#(scored)}"#
    }

    @Test func aValidTokenPassesAndTheVendorGetsSecretResponseIPAndSiteKey() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed()))
        defer { vendor.stop() }
        let proof = try verifier(vendor, hostnames: ["app.example.com"]).verify(F.submission("hcaptcha"), context: F.context)
        #expect(proof == ChallengeProof(provider: "hcaptcha", replayKey: F.hexSHA256(F.token), replayExpiresAt: F.now + 120))
        let request = try #require(vendor.requests.first)
        #expect(request.method == "POST" && request.path == "/siteverify")
        #expect(F.form(request) == [
            "secret": "0x-secret", "response": F.token, "remoteip": "203.0.113.7", "sitekey": "10000000-ffff-ffff-ffff-000000000001",
        ])
        #expect(verifier(vendor).publicParameters == ["site_key": "10000000-ffff-ffff-ffff-000000000001"])
    }

    @Test func vendorRefusalsAreChallengeFailures() throws {
        let vendor = try FakeSiteVerifyVendor(.json(#"{"success":false,"error-codes":["invalid-or-already-seen-response"]}"#))
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor).verify(F.submission("hcaptcha"), context: F.context) }
        #expect(error?.code == .challengeFailed)
        #expect(error?.message.contains("invalid-or-already-seen-response") == true)
        // Our own keys not matching is ours to fix, not the client's.
        vendor.answer(.json(#"{"success":false,"error-codes":["sitekey-secret-mismatch"]}"#))
        #expect(F.refusal { _ = try verifier(vendor).verify(F.submission("hcaptcha"), context: F.context) }?.code == .unavailable)
    }

    @Test func vendorCodesAreQuotedSanitised() throws {
        let vendor = try FakeSiteVerifyVendor(.json(#"{"success":false,"error-codes":["bad <script>\n code"]}"#))
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor).verify(F.submission("hcaptcha"), context: F.context) }
        #expect(error?.message.hasSuffix("badscriptcode") == true)
    }

    @Test func aTokenFromAnotherHostFails() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed(hostname: "phish.example")))
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor, hostnames: ["app.example.com"]).verify(F.submission("hcaptcha"), context: F.context) }
        #expect(error?.code == .challengeFailed)
    }

    /// hCaptcha Enterprise's score is a risk: higher is more likely a bot.
    @Test func aRiskScoreAboveTheMaximumFails() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed(score: "0.9")))
        defer { vendor.stop() }
        #expect(F.refusal { _ = try verifier(vendor, maximumRiskScore: 0.5).verify(F.submission("hcaptcha"), context: F.context) }?.code == .challengeFailed)
        vendor.answer(.json(passed()))
        #expect(F.refusal { _ = try verifier(vendor, maximumRiskScore: 0.5).verify(F.submission("hcaptcha"), context: F.context) }?.code == .challengeFailed)
        vendor.answer(.json(passed(score: "0.2")))
        #expect(throws: Never.self) { try verifier(vendor, maximumRiskScore: 0.5).verify(F.submission("hcaptcha"), context: F.context) }
        // Not configured: the score is not looked at.
        vendor.answer(.json(passed(score: "0.99")))
        #expect(throws: Never.self) { try verifier(vendor).verify(F.submission("hcaptcha"), context: F.context) }
    }

    @Test func anOldChallengeFails() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed(age: 121)))
        defer { vendor.stop() }
        #expect(F.refusal { _ = try verifier(vendor).verify(F.submission("hcaptcha"), context: F.context) }?.code == .challengeFailed)
    }

    @Test func aHugeTokenNeverReachesTheVendor() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed()))
        defer { vendor.stop() }
        let huge = F.submission("hcaptcha", token: String(repeating: "P1_", count: 1000))
        #expect(F.refusal { _ = try verifier(vendor).verify(huge, context: F.context) }?.code == .invalidRequest)
        #expect(vendor.requests.isEmpty)
    }

    @Test func aFailingVendorIsUnavailable() throws {
        let vendor = try FakeSiteVerifyVendor(.status(503, "maintenance"))
        defer { vendor.stop() }
        #expect(F.refusal { _ = try verifier(vendor).verify(F.submission("hcaptcha"), context: F.context) }?.code == .unavailable)
    }
}
