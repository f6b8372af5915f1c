import SettingsTable

/// The mfa section of the settings table (read by `Configuration.readMFA`).
extension Settings {
    public static let authCoreJWKSURL = Setting<String>(
        "PHONE_VERIFY_AUTH_CORE_JWKS_URL", .mfa, .url, default: "(none)",
        "the main auth server's JWKS URL (session tokens for MFA)",
        production: .httpsOrLoopback { $0.authCore.jwksURL })

    public static let authCoreJWKSFile = Setting<String>(
        "PHONE_VERIFY_AUTH_CORE_JWKS_FILE", .mfa, .text, default: "(none)",
        "the main auth server's JWKS as a file")

    public static let authCoreHS256Secret = Setting<String>(
        "PHONE_VERIFY_AUTH_CORE_HS256_SECRET", .mfa, .secret(minimumLength: 32, problem: "must be at least 32 characters"), default: "(none)",
        "shared HS256 secret of the main auth server's session tokens",
        secret: true)

    public static let authCoreIssuer = Setting<String>(
        "PHONE_VERIFY_AUTH_CORE_ISSUER", .mfa, .text, default: "(none)",
        "required iss of session tokens (set it in production)",
        production: .required(reason: " when MFA is configured") { $0.authCore.isConfigured })

    public static let authCoreAudience = Setting<String>(
        "PHONE_VERIFY_AUTH_CORE_AUDIENCE", .mfa, .text, default: "(none)",
        "required aud of session tokens (set it in production)",
        production: .required(reason: " when MFA is configured") { $0.authCore.isConfigured })

    public static let authCoreLeeway = Setting<Int>(
        "PHONE_VERIFY_AUTH_CORE_LEEWAY", .mfa, .int(0...300), defaultsTo: 30,
        "seconds of clock skew allowed on exp, nbf and iat")

    public static let authCoreJWKSMinRefresh = Setting<Int>(
        "PHONE_VERIFY_AUTH_CORE_JWKS_MIN_REFRESH", .mfa, .int(1...3600), defaultsTo: 30,
        "minimum seconds between JWKS fetches triggered by unknown key ids")

    public static let maxFactors = Setting<Int>(
        "PHONE_VERIFY_MAX_FACTORS", .mfa, .int(1...100), defaultsTo: 10,
        "phone factors per user")

    public static let stepUpMaxAge = Setting<Int>(
        "PHONE_VERIFY_STEP_UP_MAX_AGE", .mfa, .int(30...86_400), defaultsTo: 600,
        "seconds a step-up counts as recent for deleting a factor")

    static let mfaSection: [any SettingEntry] = [authCoreJWKSURL, authCoreJWKSFile, authCoreHS256Secret, authCoreIssuer, authCoreAudience, authCoreLeeway, authCoreJWKSMinRefresh, maxFactors, stepUpMaxAge]
}
