import SettingsTable

extension Configuration {
    /// The main auth server's session tokens and the MFA policy (`Settings+MFA.swift`).
    mutating func readMFA(_ reader: inout SettingReader) {
        authCore.jwksURL = reader(Settings.authCoreJWKSURL)
        authCore.jwksFile = reader(Settings.authCoreJWKSFile)
        authCore.hs256Secret = reader(Settings.authCoreHS256Secret)
        authCore.issuer = reader(Settings.authCoreIssuer)
        authCore.audience = reader(Settings.authCoreAudience)
        authCore.leeway = reader.value(Settings.authCoreLeeway)
        authCore.jwksMinRefresh = reader.value(Settings.authCoreJWKSMinRefresh)
        mfa.maxFactors = reader.value(Settings.maxFactors)
        mfa.stepUpMaxAge = reader.value(Settings.stepUpMaxAge)
    }
}
