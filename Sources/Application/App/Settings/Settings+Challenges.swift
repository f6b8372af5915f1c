import SettingsTable
import VerifyCore

/// The challenges section of the settings table (read by `Configuration.readChallenges`): the
/// policy here, each provider's settings in its own file (`Settings+Turnstile…`).
extension Settings {
    public static let challenge = Setting<ChallengeMode>(
        "PHONE_VERIFY_CHALLENGE", .challenges, .choice(ChallengeMode.self), default: "suspicious when a provider is configured, else off",
        "when a start or resend must carry a solved challenge: off, suspicious (only when risk is raised) or always (docs/CHALLENGES.md)")

    public static let challengeProviders = Setting<[String]>(
        "PHONE_VERIFY_CHALLENGE_PROVIDERS", .challenges,
        .list("comma-separated providers") { ChallengeSettings.knownProviders.contains($0) ? nil : "unknown provider \"\($0.prefix(32))\"" },
        defaultsTo: [], shown: "(none)",
        "enabled challenge providers, in the order clients are offered them: turnstile, hcaptcha, recaptcha, app_attest, play_integrity, grant")

    public static let challengeSoftThreshold = Setting<Double>(
        "PHONE_VERIFY_CHALLENGE_SOFT_THRESHOLD", .challenges, .fraction, default: "0.5",
        "fraction of a number's, client's or block's send quota after which its starts need a challenge (suspicious mode)")

    public static let challengeLiftFactor = Setting<Int>(
        "PHONE_VERIFY_CHALLENGE_LIFT_FACTOR", .challenges, .int(1...10), default: "2",
        "a passed challenge lets a start past an exhausted number, client or block quota, up to this many times the quota (1: never)")

    static var challengesSection: [any SettingEntry] {
        [challenge, challengeProviders, challengeSoftThreshold, challengeLiftFactor]
            + siteVerifySection + appAttestSection + playIntegritySection + grantSection
    }
}
