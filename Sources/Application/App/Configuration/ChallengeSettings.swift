import SettingsTable
import VerifyCore

/// Challenge settings as read: the policy, the enabled providers and each provider's settings.
public struct ChallengeSettings: Sendable {
    public static let knownProviders = ["turnstile", "hcaptcha", "recaptcha", "app_attest", "play_integrity", "grant"]

    /// nil: `suspicious` when a provider is enabled, else `off`.
    public var mode: ChallengeMode?
    public var providers: [String] = []
    public var policy = ChallengePolicy()
    public var siteVerify = SiteVerifySettings()
    public var appAttest = AppAttestSettings()
    public var playIntegrity = PlayIntegritySettings()
    public var grant = GrantSettings()

    public init() {}

    /// The mode in force.
    public var effectiveMode: ChallengeMode { providers.isEmpty ? .off : mode ?? .suspicious }
}
