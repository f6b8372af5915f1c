import Credentials
import CurlClient
import SettingsTable
import VerifyCore

/// The `grant` provider's settings as read (docs/CHALLENGES.md, "grant").
public struct GrantSettings: Sendable {
    public var issuer: String?
    /// nil: PhoneVerify's issuer (`PHONE_VERIFY_ISSUER`).
    public var audience: String?
    public var hs256Secret: String?
    public var jwksURL: String?
    public var maxLifetime = 300

    public init() {}
}

extension Settings {
    public static let grantIssuer = Setting<String>(
        "PHONE_VERIFY_GRANT_ISSUER", .challenges, .text, default: "(none)",
        "iss of grants (your backend); required by the grant provider")

    public static let grantAudience = Setting<String>(
        "PHONE_VERIFY_GRANT_AUDIENCE", .challenges, .text, default: "the value of PHONE_VERIFY_ISSUER",
        "aud grants must contain; required by the grant provider when PHONE_VERIFY_ISSUER is not set")

    public static let grantHS256Secret = Setting<String>(
        "PHONE_VERIFY_GRANT_HS256_SECRET", .challenges, .text, default: "(none)",
        "shared secret of HS256 grants (at least 32 bytes in production); this or PHONE_VERIFY_GRANT_JWKS_URL is required by the grant provider",
        secret: true,
        production: .check { c in
            guard let secret = c.challenges.grant.hs256Secret, secret.utf8.count < 32 else { return nil }
            return "must be at least 32 bytes in production mode"
        })

    public static let grantJWKSURL = Setting<String>(
        "PHONE_VERIFY_GRANT_JWKS_URL", .challenges, .url, default: "(none)",
        "your backend's JWKS (ES256, RS256 or EdDSA keys) for signed grants",
        production: .httpsOrLoopback { $0.challenges.grant.jwksURL })

    public static let grantMaxLifetime = Setting<Int>(
        "PHONE_VERIFY_GRANT_MAX_LIFETIME", .challenges, .int(10...3600), default: "300",
        "longest exp − iat of an accepted grant, seconds")

    static var grantSection: [any SettingEntry] { [grantIssuer, grantAudience, grantHS256Secret, grantJWKSURL, grantMaxLifetime] }
}

extension Configuration {
    /// The grant's settings; when the provider is enabled, an issuer, an audience (its own or
    /// PhoneVerify's issuer) and a key source are required.
    mutating func readGrant(_ reader: inout SettingReader) {
        var s = GrantSettings()
        let enabled = challenges.providers.contains("grant")
        let user = "the grant provider"
        s.issuer = enabled ? reader.required(Settings.grantIssuer, for: user) : reader(Settings.grantIssuer)
        s.audience = reader(Settings.grantAudience)
        s.hs256Secret = reader(Settings.grantHS256Secret)
        s.jwksURL = reader(Settings.grantJWKSURL)
        s.maxLifetime = reader(Settings.grantMaxLifetime) ?? s.maxLifetime
        if enabled {
            if s.audience == nil && issuer == nil {
                reader.problem(Settings.grantAudience, "is required by \(user) when \(Settings.issuer.name) is not set")
            }
            if s.hs256Secret == nil && s.jwksURL == nil {
                reader.problem(Settings.grantHS256Secret, "or \(Settings.grantJWKSURL.name) is required by \(user)")
            }
        }
        challenges.grant = s
    }
}

extension ChallengeFactory {
    static func grantVerifiers(_ parts: Parts, http: HTTPClient) throws -> [any ChallengeVerifier] {
        let c = parts.configuration
        let s = c.challenges.grant
        guard let issuer = s.issuer, let audience = s.audience ?? c.issuer else {
            throw ConfigurationError(problems: ["the grant provider is enabled without an issuer or audience"])
        }
        let configuration = GrantConfiguration(
            issuer: issuer, audience: audience, hs256Secret: s.hs256Secret, jwksURL: s.jwksURL, maxLifetimeSeconds: s.maxLifetime)
        do {
            return [try GrantVerifier(configuration: configuration, clock: parts.clock, http: http)]
        } catch let error as SessionTokenConfigurationError {
            throw ConfigurationError(problems: ["the grant provider: " + error.description])
        }
    }
}
