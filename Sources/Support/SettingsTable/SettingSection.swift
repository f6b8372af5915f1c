/// The part of the service a setting belongs to. Sections order `--help` and
/// docs/CONFIGURATION.md, and each has one `Configuration+Section` reader, so a setting's
/// declaration and the code that fills its field sit side by side.
public enum SettingSection: String, Sendable, CaseIterable {
    case server, credentials, codes, limits
    case challenges
    case twilioCompat = "twilio compatibility"
    case apiKeys = "API keys"
    case gateways, channels, events, messages
    case mfa = "MFA"
    case operations
}
