import CurlClient
import Foundation
import VerifyCore

/// Google reCAPTCHA, verified server-side (docs/CHALLENGES.md). v2 (checkbox) and v3 (score)
/// tokens go to siteverify as a form POST of `secret`, `response` and `remoteip`, answered with
/// `{"success", "error-codes", "hostname", "challenge_ts"}` plus `score` and `action` for v3;
/// Enterprise tokens become an assessment (`ReCaptchaVerifier+Enterprise.swift`). Tokens live two
/// minutes and verify once.
public struct ReCaptchaVerifier: ChallengeVerifier {
    public enum Version: String, Sendable, CaseIterable {
        case v2, v3, enterprise
    }

    /// How this deployment reaches Google.
    public enum Credentials: Sendable {
        /// v2 and v3: the legacy secret key, posted to siteverify.
        case secret(String)
        /// Enterprise: the Google Cloud project and an API key allowed to create assessments.
        case enterprise(projectID: String, apiKey: String)
    }

    public static let siteVerifyURL = "https://www.google.com/recaptcha/api/siteverify"
    /// Enterprise's base: `/v1/projects/{project}/assessments` is appended.
    public static let enterpriseURL = "https://recaptchaenterprise.googleapis.com"
    public static let tokenValidity: TimeInterval = 120
    public static let defaultMinimumScore = 0.5
    /// siteverify codes that say our configuration is wrong, not the token: 503, not 403.
    static let vendorSideCodes: Set<String> = ["missing-input-secret", "invalid-input-secret"]

    public let provider = "recaptcha"
    let version: Version
    let siteKey: String
    let credentials: Credentials
    let url: String
    let rules: SiteVerifyRules
    let call: VendorCall

    /// `url`: siteverify (v2, v3) or Enterprise's base URL; nil: Google's. `action` and
    /// `minimumScore` apply to v3 and Enterprise only (v2 answers carry neither).
    public init(
        version: Version, siteKey: String, credentials: Credentials, url: String? = nil, hostnames: [String] = [],
        action: String? = nil, minimumScore: Double = Self.defaultMinimumScore, http: HTTPClient, timeout: Double? = nil
    ) {
        self.version = version
        self.siteKey = siteKey
        self.credentials = credentials
        self.url = url ?? (version == .enterprise ? Self.enterpriseURL : Self.siteVerifyURL)
        let scored = version != .v2
        rules = SiteVerifyRules(
            hostnames: hostnames, action: scored ? action : nil, minimumScore: scored ? minimumScore : nil,
            tokenValidity: Self.tokenValidity)
        call = VendorCall(http: http, timeout: timeout)
    }

    public var publicParameters: [String: String] {
        var parameters = ["site_key": siteKey, "version": version.rawValue]
        if let action = rules.action { parameters["action"] = action }
        return parameters
    }

    public func verify(_ submission: ChallengeSubmission, context: ChallengeContext) throws -> ChallengeProof {
        let token = try SiteVerifyRules.token(of: submission)
        let verdict: VendorVerdict
        switch credentials {
        case .secret(let secret):
            verdict = try siteVerify(token: token, secret: secret, clientIP: context.clientIP)
        case .enterprise(let projectID, let apiKey):
            verdict = try assess(token: token, projectID: projectID, apiKey: apiKey, clientIP: context.clientIP)
        }
        guard verdict.valid else { throw verdict.refusal(provider: provider) }
        try rules.check(verdict, provider: provider, now: context.now)
        return rules.proof(provider: provider, token: token, now: context.now)
    }

    private func siteVerify(token: String, secret: String, clientIP: String) throws -> VendorVerdict {
        try SiteVerifyClient(provider: provider, url: url, secret: secret, vendorSideCodes: Self.vendorSideCodes, call: call)
            .verdict(token: token, clientIP: clientIP)
    }
}
