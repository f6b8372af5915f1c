import CurlClient
import Foundation
import VerifyCore

/// hCaptcha, verified server-side: a form POST of `secret`, `response`, `remoteip` and
/// `sitekey` to siteverify, answered with `{"success", "error-codes", "hostname",
/// "challenge_ts"}` and, for Enterprise accounts, a risk `score` (1.0: very likely a bot).
/// Tokens live about two minutes and verify once (docs/CHALLENGES.md).
public struct HCaptchaVerifier: ChallengeVerifier {
    public static let defaultURL = "https://api.hcaptcha.com/siteverify"
    public static let tokenValidity: TimeInterval = 120
    /// Codes that say our configuration is wrong, not the token: 503, not 403.
    static let vendorSideCodes: Set<String> = ["missing-input-secret", "invalid-input-secret", "sitekey-secret-mismatch"]

    public let provider = "hcaptcha"
    let siteKey: String
    let rules: SiteVerifyRules
    let client: SiteVerifyClient

    /// `maximumRiskScore`: refuse an Enterprise score above it (nil: scores are not checked).
    public init(
        siteKey: String, secret: String, url: String = Self.defaultURL, hostnames: [String] = [], maximumRiskScore: Double? = nil,
        http: HTTPClient, timeout: Double? = nil
    ) {
        self.siteKey = siteKey
        rules = SiteVerifyRules(hostnames: hostnames, maximumRiskScore: maximumRiskScore, tokenValidity: Self.tokenValidity)
        client = SiteVerifyClient(
            provider: provider, url: url, secret: secret, vendorSideCodes: Self.vendorSideCodes, call: VendorCall(http: http, timeout: timeout))
    }

    public var publicParameters: [String: String] { ["site_key": siteKey] }

    public func verify(_ submission: ChallengeSubmission, context: ChallengeContext) throws -> ChallengeProof {
        let token = try SiteVerifyRules.token(of: submission)
        // With the site key, hCaptcha refuses a token solved for another site of the account.
        let verdict = try client.verdict(token: token, clientIP: context.clientIP, extra: [("sitekey", siteKey)])
        guard verdict.valid else { throw verdict.refusal(provider: provider) }
        try rules.check(verdict, provider: provider, now: context.now)
        return rules.proof(provider: provider, token: token, now: context.now)
    }
}
