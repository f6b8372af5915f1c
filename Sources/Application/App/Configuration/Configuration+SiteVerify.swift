import Challenges
import SettingsTable

extension Configuration {
    /// The captcha providers' settings, each read (and its keys required) only when the provider
    /// is listed in PHONE_VERIFY_CHALLENGE_PROVIDERS (`Settings+SiteVerify.swift`).
    mutating func readSiteVerify(_ reader: inout SettingReader) {
        let enabled = challenges.providers
        if enabled.contains("turnstile") {
            let user = "the turnstile challenge provider"
            challenges.siteVerify.turnstile = SiteVerifySettings.Vendor(
                siteKey: reader.required(Settings.turnstileSiteKey, for: user) ?? "",
                secret: reader.required(Settings.turnstileSecret, for: user) ?? "",
                verifyURL: reader.value(Settings.turnstileVerifyURL),
                hostnames: reader.value(Settings.turnstileHostnames),
                action: reader(Settings.turnstileAction))
        }
        if enabled.contains("hcaptcha") {
            let user = "the hcaptcha challenge provider"
            challenges.siteVerify.hcaptcha = SiteVerifySettings.Vendor(
                siteKey: reader.required(Settings.hcaptchaSiteKey, for: user) ?? "",
                secret: reader.required(Settings.hcaptchaSecret, for: user) ?? "",
                verifyURL: reader.value(Settings.hcaptchaVerifyURL),
                hostnames: reader.value(Settings.hcaptchaHostnames))
            challenges.siteVerify.hcaptchaMaxScore = reader(Settings.hcaptchaMaxScore)
        }
        if enabled.contains("recaptcha") { readReCaptcha(&reader) }
    }

    /// reCAPTCHA: v2 and v3 need the secret; Enterprise the project and an API key instead. v3
    /// and Enterprise need the action (a score without one can come from any page of the site).
    private mutating func readReCaptcha(_ reader: inout SettingReader) {
        let version = reader.value(Settings.recaptchaVersion)
        let user = "the recaptcha challenge provider (\(version.rawValue))"
        var vendor = SiteVerifySettings.Vendor(
            siteKey: reader.required(Settings.recaptchaSiteKey, for: user) ?? "",
            hostnames: reader.value(Settings.recaptchaHostnames))
        let minimumScore = reader(Settings.recaptchaMinScore)
        let action = reader(Settings.recaptchaAction)
        switch version {
        case .v2:
            vendor.secret = reader.required(Settings.recaptchaSecret, for: user) ?? ""
            if action != nil { reader.problem(Settings.recaptchaAction, "applies to v3 and enterprise only (v2 answers carry no action)") }
            if minimumScore != nil { reader.problem(Settings.recaptchaMinScore, "applies to v3 and enterprise only (v2 answers carry no score)") }
        case .v3, .enterprise:
            if action == nil { reader.problem(Settings.recaptchaAction, "is required by \(user)") }
            vendor.action = action
            if version == .v3 {
                vendor.secret = reader.required(Settings.recaptchaSecret, for: user) ?? ""
            } else {
                challenges.siteVerify.recaptchaProjectID = reader.required(Settings.recaptchaProjectID, for: user) ?? ""
                challenges.siteVerify.recaptchaAPIKey = reader.required(Settings.recaptchaAPIKey, for: user) ?? ""
            }
        }
        vendor.verifyURL = reader(Settings.recaptchaVerifyURL)
            ?? (version == .enterprise ? ReCaptchaVerifier.enterpriseURL : ReCaptchaVerifier.siteVerifyURL)
        challenges.siteVerify.recaptcha = vendor
        challenges.siteVerify.recaptchaVersion = version
        challenges.siteVerify.recaptchaMinScore = minimumScore ?? Settings.recaptchaMinScore.standard
    }
}
