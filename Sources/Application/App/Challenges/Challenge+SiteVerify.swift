import Challenges
import CurlClient
import SettingsTable
import VerifyCore

/// The captcha providers' settings as read (`Settings+SiteVerify.swift`,
/// `Configuration+SiteVerify.swift`); a provider's entry is nil unless it is enabled.
public struct SiteVerifySettings: Sendable {
    /// What every captcha provider is configured with.
    public struct Vendor: Sendable {
        public var siteKey = ""
        /// The siteverify secret (empty for reCAPTCHA Enterprise, which uses `apiKey`).
        public var secret = ""
        /// The effective URL (the vendor's own unless overridden).
        public var verifyURL = ""
        public var hostnames: [String] = []
        public var action: String?
    }

    public var turnstile: Vendor?
    public var hcaptcha: Vendor?
    /// hCaptcha Enterprise's highest accepted risk score; nil: not checked.
    public var hcaptchaMaxScore: Double?
    public var recaptcha: Vendor?
    public var recaptchaVersion = ReCaptchaVerifier.Version.v3
    public var recaptchaMinScore: Double = Settings.recaptchaMinScore.standard
    public var recaptchaProjectID = ""
    public var recaptchaAPIKey = ""

    public init() {}
}

extension ChallengeFactory {
    static func siteVerifyVerifiers(_ name: String, _ parts: Parts, http: HTTPClient) throws -> [any ChallengeVerifier] {
        let settings = parts.configuration.challenges.siteVerify
        switch name {
        case "turnstile":
            guard let v = settings.turnstile else { return [] }
            return [TurnstileVerifier(siteKey: v.siteKey, secret: v.secret, url: v.verifyURL, hostnames: v.hostnames, action: v.action, http: http)]
        case "hcaptcha":
            guard let v = settings.hcaptcha else { return [] }
            return [HCaptchaVerifier(
                siteKey: v.siteKey, secret: v.secret, url: v.verifyURL, hostnames: v.hostnames, maximumRiskScore: settings.hcaptchaMaxScore,
                http: http)]
        case "recaptcha":
            guard let v = settings.recaptcha else { return [] }
            let credentials: ReCaptchaVerifier.Credentials = settings.recaptchaVersion == .enterprise
                ? .enterprise(projectID: settings.recaptchaProjectID, apiKey: settings.recaptchaAPIKey) : .secret(v.secret)
            return [ReCaptchaVerifier(
                version: settings.recaptchaVersion, siteKey: v.siteKey, credentials: credentials, url: v.verifyURL, hostnames: v.hostnames,
                action: v.action, minimumScore: settings.recaptchaMinScore, http: http)]
        default:
            return []
        }
    }
}
