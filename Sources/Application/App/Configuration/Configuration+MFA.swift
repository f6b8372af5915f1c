extension Configuration {
    /// The main auth server's session tokens and the MFA policy (`Settings+MFA.swift`).
    mutating func readMFA(_ reader: inout SettingReader) {
        authCore.jwksURL = reader(Settings.authCoreJWKSURL)
        authCore.jwksFile = reader(Settings.authCoreJWKSFile)
        authCore.hs256Secret = reader(Settings.authCoreHS256Secret)
        authCore.issuer = reader(Settings.authCoreIssuer)
        authCore.audience = reader(Settings.authCoreAudience)
        authCore.leeway = reader(Settings.authCoreLeeway) ?? authCore.leeway
        authCore.jwksMinRefresh = reader(Settings.authCoreJWKSMinRefresh) ?? authCore.jwksMinRefresh
        mfa.maxFactors = reader(Settings.maxFactors) ?? mfa.maxFactors
        mfa.stepUpMaxAge = reader(Settings.stepUpMaxAge) ?? mfa.stepUpMaxAge
    }
}
