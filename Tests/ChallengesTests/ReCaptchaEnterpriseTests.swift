import Foundation
import Testing
import VerifyCore
@testable import Challenges

@Suite struct ReCaptchaEnterpriseTests {
    typealias F = SiteVerifyFixture

    func verifier(_ vendor: FakeSiteVerifyVendor, hostnames: [String] = []) -> ReCaptchaVerifier {
        ReCaptchaVerifier(
            version: .enterprise, siteKey: "6Lc-enterprise", credentials: .enterprise(projectID: "my-project", apiKey: "AIza-key/+"),
            url: vendor.base, hostnames: hostnames, action: "start", http: F.http())
    }

    /// An assessment as Google writes it; nil members are left out, as protocol buffers' JSON
    /// leaves out default values.
    func assessment(valid: Bool? = true, reason: String? = nil, score: String? = "0.9", action: String = "start", hostname: String = "app.example.com") -> String {
        var token = [#""hostname":"\#(hostname)""#, #""action":"\#(action)""#, #""createTime":"\#(F.timestamp(4).dropLast())123456Z""#]
        if let valid { token.append(#""valid":\#(valid)"#) }
        if let reason { token.append(#""invalidReason":"\#(reason)""#) }
        let risk = score.map { #"{"score":\#($0),"reasons":[]}"# } ?? #"{"reasons":[]}"#
        return #"{"name":"projects/123/assessments/abc","riskAnalysis":\#(risk),"tokenProperties":{\#(token.joined(separator: ","))}}"#
    }

    @Test func aValidTokenPassesAndGoogleGetsTheDocumentedAssessmentRequest() throws {
        let vendor = try FakeSiteVerifyVendor(.json(assessment()))
        defer { vendor.stop() }
        let proof = try verifier(vendor, hostnames: ["app.example.com"]).verify(F.submission("recaptcha"), context: F.context)
        #expect(proof == ChallengeProof(provider: "recaptcha", replayKey: F.hexSHA256(F.token), replayExpiresAt: F.now + 120))
        let request = try #require(vendor.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/projects/my-project/assessments")
        #expect(request.query["key"] == "AIza-key/+")
        #expect(request.headers["Content-Type"] == "application/json")
        let body = try JSONValue.parse(request.body)
        #expect(body == ["event": [
            "expectedAction": "start", "siteKey": "6Lc-enterprise", "token": .string(F.token), "userIpAddress": "203.0.113.7",
        ]])
        #expect(verifier(vendor).publicParameters == ["site_key": "6Lc-enterprise", "version": "enterprise", "action": "start"])
    }

    @Test func anInvalidTokenFailsNamingGooglesReason() throws {
        let vendor = try FakeSiteVerifyVendor(.json(assessment(valid: false, reason: "EXPIRED", score: nil)))
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor).verify(F.submission("recaptcha"), context: F.context) }
        #expect(error?.code == .challengeFailed)
        #expect(error?.message.contains("EXPIRED") == true)
        // `valid` left out means false.
        vendor.answer(.json(assessment(valid: nil, reason: "DUPE")))
        let dupe = F.refusal { _ = try verifier(vendor).verify(F.submission("recaptcha"), context: F.context) }
        #expect(dupe?.code == .challengeFailed)
        #expect(dupe?.message.contains("DUPE") == true)
    }

    @Test func aLowOrMissingScoreFails() throws {
        let vendor = try FakeSiteVerifyVendor(.json(assessment(score: "0.1")))
        defer { vendor.stop() }
        #expect(F.refusal { _ = try verifier(vendor).verify(F.submission("recaptcha"), context: F.context) }?.code == .challengeFailed)
        // A score of 0.0 is left out of the JSON: it still fails.
        vendor.answer(.json(assessment(score: nil)))
        #expect(F.refusal { _ = try verifier(vendor).verify(F.submission("recaptcha"), context: F.context) }?.code == .challengeFailed)
    }

    @Test func anotherActionOrHostFails() throws {
        let vendor = try FakeSiteVerifyVendor(.json(assessment(action: "login")))
        defer { vendor.stop() }
        #expect(F.refusal { _ = try verifier(vendor).verify(F.submission("recaptcha"), context: F.context) }?.code == .challengeFailed)
        vendor.answer(.json(assessment(hostname: "evil.example")))
        let error = F.refusal { _ = try verifier(vendor, hostnames: ["app.example.com"]).verify(F.submission("recaptcha"), context: F.context) }
        #expect(error?.code == .challengeFailed)
    }

    /// A refused API key (403) or an outage is ours or Google's, never the client's.
    @Test(arguments: [
        FakeSiteVerifyVendor.Answer.status(403, #"{"error":{"code":403,"status":"PERMISSION_DENIED"}}"#), .status(500, "{}"),
        .json(#"{"name":"projects/123/assessments/abc"}"#),
    ])
    func googleFailingIsUnavailable(_ answer: FakeSiteVerifyVendor.Answer) throws {
        let vendor = try FakeSiteVerifyVendor(answer)
        defer { vendor.stop() }
        let error = F.refusal { _ = try verifier(vendor).verify(F.submission("recaptcha"), context: F.context) }
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains("AIza") == false)
    }
}
