extension Configuration {
    /// Rate limits, the lockout, the fraud guard and test numbers (`Settings+Limits.swift`).
    mutating func readLimits(_ reader: inout SettingReader) {
        limits = reader(Settings.limits) ?? limits
        limits.prefixDigits = reader(Settings.prefixDigits)
        limits.lockoutBackoff = reader(Settings.lockoutBackoff) ?? limits.lockoutBackoff
        fraud.enabled = reader(Settings.fraud) ?? fraud.enabled
        fraud.minSends = reader(Settings.fraudMinSends) ?? fraud.minSends
        fraud.minConversion = reader(Settings.fraudMinConversion) ?? fraud.minConversion
        fraud.window = reader(Settings.fraudWindow) ?? fraud.window
        fraud.watchSends = reader(Settings.fraudWatchSends) ?? fraud.watchSends
        fraud.surge = Double(reader(Settings.fraudSurge) ?? Int(fraud.surge))
        fraud.baseline = reader(Settings.fraudBaseline) ?? fraud.baseline
        // Counters older than the retention are purged: a baseline reaching further back would
        // count hours with nothing in them as quiet ones.
        fraud.baseline = max(fraud.window, min(fraud.baseline, retention - fraud.window))
        fraud.countryMinSends = reader(Settings.fraudCountryMinSends) ?? fraud.countryMinSends
        fraud.countryBlocks = reader(Settings.fraudCountryBlocks) ?? fraud.countryBlocks
        fraud.countryClients = reader(Settings.fraudCountryClients) ?? fraud.countryClients
        fraud.floor = reader(Settings.fraudFloor) ?? fraud.floor
        fraud.proofRate = reader(Settings.fraudProofRate) ?? fraud.proofRate
        fraud.steerToWhatsApp = (reader(Settings.fraudSteer) ?? "whatsapp") == "whatsapp"
        testNumbers.codes = reader(Settings.testNumbers) ?? testNumbers.codes
        testNumbers.expiresAt = reader(Settings.testNumbersExpireAt) ?? testNumbers.expiresAt
    }
}
