extension Configuration {
    /// The codes and who may receive them (`Settings+Codes.swift`).
    mutating func readCodes(_ reader: inout SettingReader) {
        codeSecret = reader(Settings.codeSecret)
        policy.codeLength = reader(Settings.codeLength) ?? policy.codeLength
        policy.codeTTL = reader(Settings.codeTTL) ?? policy.codeTTL
        policy.maxAttempts = reader(Settings.maxAttempts) ?? policy.maxAttempts
        policy.maxSends = reader(Settings.maxSends) ?? policy.maxSends
        policy.resendCooldown = reader(Settings.resendCooldown) ?? policy.resendCooldown
        policy.allowedLineTypes = reader(Settings.allowedLineTypes) ?? policy.allowedLineTypes
        policy.regionAllowList = Set(reader(Settings.regionAllowList) ?? [])
        policy.regionDenyList = Set(reader(Settings.regionDenyList) ?? [])
    }
}
