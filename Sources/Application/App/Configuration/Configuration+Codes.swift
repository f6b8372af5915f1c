import SettingsTable

extension Configuration {
    /// The codes and who may receive them (`Settings+Codes.swift`).
    mutating func readCodes(_ reader: inout SettingReader) {
        codeSecret = reader(Settings.codeSecret)
        policy.codeLength = reader.value(Settings.codeLength)
        policy.codeTTL = reader.value(Settings.codeTTL)
        policy.maxAttempts = reader.value(Settings.maxAttempts)
        policy.maxSends = reader.value(Settings.maxSends)
        policy.resendCooldown = reader.value(Settings.resendCooldown)
        policy.allowedLineTypes = reader.value(Settings.allowedLineTypes)
        policy.regionAllowList = Set(reader.value(Settings.regionAllowList))
        policy.regionDenyList = Set(reader.value(Settings.regionDenyList))
    }
}
