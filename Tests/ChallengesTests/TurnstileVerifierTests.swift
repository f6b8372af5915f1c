import Foundation
import Testing
import VerifyCore
@testable import Challenges

@Suite struct TurnstileVerifierTests {
    typealias F = SiteVerifyFixture

    func verifier(_ vendor: FakeSiteVerifyVendor, hostnames: [String] = [], action: String? = nil, timeout: Double? = nil) -> TurnstileVerifier {
        TurnstileVerifier(
            siteKey: "0x4AAAAAAA-site", secret: "0x4AAAAAAA-secret", url: vendor.base + "/turnstile/v0/siteverify",
            hostnames: hostnames, action: action, http: F.http(), timeout: timeout)
    }

    func passed(hostname: String = "app.example.com", action: String = "start", age: TimeInterval = 10) -> String {
        #"{"success":true,"error-codes":[],"challenge_ts":"\#(F.timestamp(age))","hostname":"\#(hostname)","action":"\#(action)"}"#
    }

    @Test func aValidTokenPassesAndTheVendorGetsTheDocumentedForm() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed()))
        defer { vendor.stop() }
        let proof = try verifier(vendor, hostnames: ["App.Example.com"], action: "start").verify(F.submission("turnstile"), context: F.context)
        #expect(proof == ChallengeProof(provider: "turnstile", replayKey: F.hexSHA256(F.token), replayExpiresAt: F.now + 300))
        let request = try #require(vendor.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/turnstile/v0/siteverify")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        let form = F.form(request)
        #expect(form["secret"] == "0x4AAAAAAA-secret")
        #expect(form["response"] == F.token)
        #expect(form["remoteip"] == "203.0.113.7")
        // One idempotency key per token (a UUID), so a retried verification gets the same answer.
        #expect(form["idempotency_key"] == TurnstileVerifier.idempotencyKey(for: F.token))
        #expect(UUID(uuidString: form["idempotency_key"] ?? "") != nil)
        #expect(TurnstileVerifier.idempotencyKey(for: "other") != TurnstileVerifier.idempotencyKey(for: F.token))
        #expect(Set(form.keys) == ["secret", "response", "remoteip", "idempotency_key"])
    }

    @Test func publicParametersNameTheSiteKeyNeverTheSecret() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed()))
        defer { vendor.stop() }
        #expect(verifier(vendor).publicParameters == ["site_key": "0x4AAAAAAA-site"])
        #expect(verifier(vendor, action: "start").publicParameters == ["site_key": "0x4AAAAAAA-site", "action": "start"])
    }

    @Test func anUnknownClientAddressIsNotSent() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed()))
        defer { vendor.stop() }
        let context = ChallengeContext(action: "start", phoneNumber: "+14155552671", clientIP: "", now: F.now)
        _ = try verifier(vendor).verify(F.submission("turnstile"), context: context)
        #expect(F.form(try #require(vendor.requests.first))["remoteip"] == nil)
    }

    @Test func vendorRefusalsNameTheVendorsCodesButNotTheToken() throws {
        let vendor = try FakeSiteVerifyVendor(.json(#"{"success":false,"error-codes":["timeout-or-duplicate"]}"#))
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor).verify(F.submission("turnstile"), context: F.context) }
        #expect(error?.code == .challengeFailed)
        #expect(error?.message.contains("timeout-or-duplicate") == true)
        #expect(error?.message.contains(F.token) == false)
        #expect(error?.details["provider"] == .string("turnstile"))
    }

    @Test func aVendorRefusingOurSecretIsUnavailableNotTheClientsFault() throws {
        let vendor = try FakeSiteVerifyVendor(.json(#"{"success":false,"error-codes":["invalid-input-secret"]}"#))
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor).verify(F.submission("turnstile"), context: F.context) }
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains("0x4AAAAAAA-secret") == false)
    }

    @Test func aTokenFromAnotherHostFails() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed(hostname: "evil.example")))
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor, hostnames: ["app.example.com"]).verify(F.submission("turnstile"), context: F.context) }
        #expect(error?.code == .challengeFailed)
        // Without configured host names any host is accepted.
        #expect(throws: Never.self) { try verifier(vendor).verify(F.submission("turnstile"), context: F.context) }
    }

    @Test func aTokenForAnotherActionFails() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed(action: "login")))
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor, action: "start").verify(F.submission("turnstile"), context: F.context) }
        #expect(error?.code == .challengeFailed)
        #expect(error?.message.contains("action") == true)
    }

    @Test func aChallengeOlderThanTheTokensLifetimeFails() throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed(age: 301)))
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor).verify(F.submission("turnstile"), context: F.context) }
        #expect(error?.code == .challengeFailed)
        vendor.answer(.json(passed(age: 299)))
        #expect(throws: Never.self) { try verifier(vendor).verify(F.submission("turnstile"), context: F.context) }
    }

    @Test(arguments: [
        FakeSiteVerifyVendor.Answer.status(500, "oops"), .status(502, "<html>bad gateway</html>"), .status(200, "<html>not json</html>"),
        .json(#"{"hostname":"app.example.com"}"#), .json(#"{"success":true,"challenge_ts":"yesterday"}"#),
    ])
    func aBrokenVendorIsUnavailable(_ answer: FakeSiteVerifyVendor.Answer) throws {
        let vendor = try FakeSiteVerifyVendor(answer)
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor).verify(F.submission("turnstile"), context: F.context) }
        #expect(error?.code == .unavailable)
        #expect(error?.retryAfter != nil)
    }

    @Test func aHangingVendorIsUnavailableWithinTheTimeout() throws {
        let vendor = try FakeSiteVerifyVendor(.hang(seconds: 3))
        defer { vendor.stop() }
        let started = Date()
        let error = F.refusal { _ = try verifier(vendor, timeout: 0.5).verify(F.submission("turnstile"), context: F.context) }
        #expect(error?.code == .unavailable)
        #expect(Date().timeIntervalSince(started) < 2.5)
    }

    @Test(arguments: ["", String(repeating: "x", count: 2049)])
    func anEmptyOrHugeTokenIsRefusedWithoutAVendorCall(_ token: String) throws {
        let vendor = try FakeSiteVerifyVendor(.json(passed()))
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor).verify(F.submission("turnstile", token: token), context: F.context) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.details["field"] == .string("challenge.token"))
        #expect(vendor.requests.isEmpty)
        // 2048 characters is still a token.
        #expect(throws: Never.self) {
            try verifier(vendor).verify(F.submission("turnstile", token: String(repeating: "x", count: 2048)), context: F.context)
        }
    }
}
