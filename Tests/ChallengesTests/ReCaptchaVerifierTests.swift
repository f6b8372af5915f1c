import Foundation
import Testing
import VerifyCore
@testable import Challenges

@Suite struct ReCaptchaVerifierTests {
    typealias F = SiteVerifyFixture

    func verifier(_ vendor: FakeSiteVerifyVendor, _ version: ReCaptchaVerifier.Version = .v3, hostnames: [String] = [], minimumScore: Double = 0.5) -> ReCaptchaVerifier {
        ReCaptchaVerifier(
            version: version, siteKey: "6Lc-site", credentials: .secret("6Lc-secret"), url: vendor.base + "/recaptcha/api/siteverify",
            hostnames: hostnames, action: "start", minimumScore: minimumScore, http: F.http())
    }

    func passed(score: String? = "0.9", action: String? = "start", hostname: String = "app.example.com") -> String {
        var members = [#""success":true"#, #""challenge_ts":"\#(F.timestamp(3).prefix(19))Z""#, #""hostname":"\#(hostname)""#]
        if let score { members.append(#""score":\#(score)"#) }
        if let action { members.append(#""action":"\#(action)""#) }
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test func aV3TokenPassesAndTheVendorGetsTheDocumentedForm() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed()))
        defer { vendor.stop() }
        let proof = try verifier(vendor, hostnames: ["app.example.com"]).verify(F.submission("recaptcha"), context: F.context)
        #expect(proof == ChallengeProof(provider: "recaptcha", replayKey: F.hexSHA256(F.token), replayExpiresAt: F.now + 120))
        let request = try #require(vendor.requests.first)
        #expect(request.method == "POST" && request.path == "/recaptcha/api/siteverify")
        #expect(F.form(request) == ["secret": "6Lc-secret", "response": F.token, "remoteip": "203.0.113.7"])
        #expect(verifier(vendor).publicParameters == ["site_key": "6Lc-site", "version": "v3", "action": "start"])
    }

    @Test func aLowScoreFails() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed(score: "0.3")))
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor).verify(F.submission("recaptcha"), context: F.context) }
        #expect(error?.code == .challengeFailed)
        #expect(error?.message.contains("score") == true)
        #expect(throws: Never.self) { try verifier(vendor, minimumScore: 0.3).verify(F.submission("recaptcha"), context: F.context) }
        vendor.answer(.json(passed(score: nil)))
        #expect(F.refusal { _ = try verifier(vendor).verify(F.submission("recaptcha"), context: F.context) }?.code == .challengeFailed)
    }

    @Test func anotherOrNoActionFails() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed(action: "login")))
        defer { vendor.stop() }
        #expect(F.refusal { _ = try verifier(vendor).verify(F.submission("recaptcha"), context: F.context) }?.code == .challengeFailed)
        vendor.answer(.json(passed(action: nil)))
        #expect(F.refusal { _ = try verifier(vendor).verify(F.submission("recaptcha"), context: F.context) }?.code == .challengeFailed)
    }

    @Test func aTokenFromAnotherHostFails() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed(hostname: "evil.example")))
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor, hostnames: ["app.example.com"]).verify(F.submission("recaptcha"), context: F.context) }
        #expect(error?.code == .challengeFailed)
    }

    @Test func vendorRefusalsNameTheCodes() throws {
        let vendor = try FakeSiteVerifyVendor(.json(#"{"success":false,"error-codes":["timeout-or-duplicate"]}"#))
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor).verify(F.submission("recaptcha"), context: F.context) }
        #expect(error?.code == .challengeFailed)
        #expect(error?.message.contains("timeout-or-duplicate") == true)
    }

    /// v2 answers carry no score and no action: neither is asked for.
    @Test func aV2CheckboxTokenNeedsNoScoreOrAction() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed(score: nil, action: nil)))
        defer { vendor.stop() }
        let v2 = verifier(vendor, .v2)
        #expect(throws: Never.self) { try v2.verify(F.submission("recaptcha"), context: F.context) }
        #expect(v2.publicParameters == ["site_key": "6Lc-site", "version": "v2"])
    }

    @Test func aBrokenOrSilentVendorIsUnavailable() throws {
        let vendor = try FakeSiteVerifyVendor(.status(500, "{}"))
        defer { vendor.stop() }
        #expect(F.refusal { _ = try verifier(vendor).verify(F.submission("recaptcha"), context: F.context) }?.code == .unavailable)
        vendor.answer(.hang(seconds: 4))
        let started = Date()
        // The client's own bound (2 s in these tests) applies when the verifier sets none.
        #expect(F.refusal { _ = try verifier(vendor).verify(F.submission("recaptcha"), context: F.context) }?.code == .unavailable)
        #expect(Date().timeIntervalSince(started) < 3.5)
    }
}
