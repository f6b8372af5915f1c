import Challenges
import SettingsTable

/// The captcha providers' settings (read by `Configuration.readSiteVerify`): Turnstile, hCaptcha
/// and reCAPTCHA, each required only when listed in PHONE_VERIFY_CHALLENGE_PROVIDERS.
extension Settings {
    public static let turnstileSiteKey = Setting<String>(
        "PHONE_VERIFY_TURNSTILE_SITE_KEY", .challenges, .text, default: "(none)",
        "Cloudflare Turnstile site key, given to clients for the widget (required by the turnstile provider)")

    public static let turnstileSecret = Setting<String>(
        "PHONE_VERIFY_TURNSTILE_SECRET", .challenges, .text, default: "(none)",
        "Cloudflare Turnstile secret key for siteverify (required by the turnstile provider)",
        secret: true)

    public static let turnstileVerifyURL = Setting<String>(
        "PHONE_VERIFY_TURNSTILE_VERIFY_URL", .challenges, .url, defaultsTo: TurnstileVerifier.defaultURL,
        "Turnstile siteverify URL (point it at a local fake in tests)",
        production: .httpsOrLoopback { $0.challenges.siteVerify.turnstile?.verifyURL })

    public static let turnstileHostnames = Setting<[String]>(
        "PHONE_VERIFY_TURNSTILE_HOSTNAMES", .challenges, .list, defaultsTo: [], shown: "(any)",
        "host names a Turnstile token must have been solved on (comma-separated)")

    public static let turnstileAction = Setting<String>(
        "PHONE_VERIFY_TURNSTILE_ACTION", .challenges, .text, default: "(not checked)",
        "action the Turnstile widget must be rendered with (data-action); tokens for another action fail")

    public static let hcaptchaSiteKey = Setting<String>(
        "PHONE_VERIFY_HCAPTCHA_SITE_KEY", .challenges, .text, default: "(none)",
        "hCaptcha site key, given to clients and sent to siteverify (required by the hcaptcha provider)")

    public static let hcaptchaSecret = Setting<String>(
        "PHONE_VERIFY_HCAPTCHA_SECRET", .challenges, .text, default: "(none)",
        "hCaptcha secret key for siteverify (required by the hcaptcha provider)",
        secret: true)

    public static let hcaptchaVerifyURL = Setting<String>(
        "PHONE_VERIFY_HCAPTCHA_VERIFY_URL", .challenges, .url, defaultsTo: HCaptchaVerifier.defaultURL,
        "hCaptcha siteverify URL",
        production: .httpsOrLoopback { $0.challenges.siteVerify.hcaptcha?.verifyURL })

    public static let hcaptchaHostnames = Setting<[String]>(
        "PHONE_VERIFY_HCAPTCHA_HOSTNAMES", .challenges, .list, defaultsTo: [], shown: "(any)",
        "host names an hCaptcha token must have been solved on (comma-separated)")

    public static let hcaptchaMaxScore = Setting<Double>(
        "PHONE_VERIFY_HCAPTCHA_MAX_SCORE", .challenges, .fraction, default: "(not checked)",
        "hCaptcha Enterprise only: highest risk score accepted (1.0 is very likely a bot); a token without a score then fails")

    public static let recaptchaSiteKey = Setting<String>(
        "PHONE_VERIFY_RECAPTCHA_SITE_KEY", .challenges, .text, default: "(none)",
        "reCAPTCHA site key, given to clients (required by the recaptcha provider)")

    public static let recaptchaSecret = Setting<String>(
        "PHONE_VERIFY_RECAPTCHA_SECRET", .challenges, .text, default: "(none)",
        "reCAPTCHA secret key for siteverify (required by the recaptcha provider, v2 and v3)",
        secret: true)

    public static let recaptchaVersion = Setting<ReCaptchaVerifier.Version>(
        "PHONE_VERIFY_RECAPTCHA_VERSION", .challenges,
        .oneOf(ReCaptchaVerifier.Version.self) { $0.lowercased() }, defaultsTo: .v3, shown: "v3",
        "reCAPTCHA flavour: v2 (checkbox), v3 (score) or enterprise (assessments)")

    public static let recaptchaMinScore = Setting<Double>(
        "PHONE_VERIFY_RECAPTCHA_MIN_SCORE", .challenges, .fraction, defaultsTo: ReCaptchaVerifier.defaultMinimumScore, shown: "0.5",
        "lowest reCAPTCHA score accepted (v3 and enterprise; 1.0 is very likely a person)")

    public static let recaptchaAction = Setting<String>(
        "PHONE_VERIFY_RECAPTCHA_ACTION", .challenges, .text, default: "(none)",
        "action clients pass to grecaptcha.execute; tokens for another action fail (required by v3 and enterprise)")

    public static let recaptchaHostnames = Setting<[String]>(
        "PHONE_VERIFY_RECAPTCHA_HOSTNAMES", .challenges, .list, defaultsTo: [], shown: "(any)",
        "host names a reCAPTCHA token must have been solved on (comma-separated)")

    public static let recaptchaVerifyURL = Setting<String>(
        "PHONE_VERIFY_RECAPTCHA_VERIFY_URL", .challenges, .url,
        default: ReCaptchaVerifier.siteVerifyURL + " (enterprise: " + ReCaptchaVerifier.enterpriseURL + ")",
        "reCAPTCHA siteverify URL, or for enterprise the API's base URL (/v1/projects/… is appended)",
        production: .httpsOrLoopback { $0.challenges.siteVerify.recaptcha?.verifyURL })

    public static let recaptchaProjectID = Setting<String>(
        "PHONE_VERIFY_RECAPTCHA_PROJECT_ID", .challenges, .text, default: "(none)",
        "Google Cloud project of the reCAPTCHA Enterprise key (required by enterprise)")

    public static let recaptchaAPIKey = Setting<String>(
        "PHONE_VERIFY_RECAPTCHA_API_KEY", .challenges, .text, default: "(none)",
        "Google Cloud API key allowed to create reCAPTCHA Enterprise assessments (required by enterprise)",
        secret: true)

    static var siteVerifySection: [any SettingEntry] {
        [
            turnstileSiteKey, turnstileSecret, turnstileVerifyURL, turnstileHostnames, turnstileAction,
            hcaptchaSiteKey, hcaptchaSecret, hcaptchaVerifyURL, hcaptchaHostnames, hcaptchaMaxScore,
            recaptchaSiteKey, recaptchaSecret, recaptchaVersion, recaptchaMinScore, recaptchaAction, recaptchaHostnames,
            recaptchaVerifyURL, recaptchaProjectID, recaptchaAPIKey,
        ]
    }
}
