import SettingsTable

extension Configuration {
    /// Rate limits, the lockout, the fraud guard and test numbers (`Settings+Limits.swift`).
    mutating func readLimits(_ reader: inout SettingReader) {
        limits = reader.value(Settings.limits)
        limits.prefixDigits = reader(Settings.prefixDigits)
        limits.lockoutBackoff = reader.value(Settings.lockoutBackoff)
        fraud.enabled = reader.value(Settings.fraud)
        fraud.minSends = reader.value(Settings.fraudMinSends)
        fraud.minConversion = reader.value(Settings.fraudMinConversion)
        fraud.window = reader.value(Settings.fraudWindow)
        fraud.watchSends = reader.value(Settings.fraudWatchSends)
        fraud.surge = Double(reader.value(Settings.fraudSurge))
        fraud.baseline = reader.value(Settings.fraudBaseline)
        // Counters older than the retention are purged: a baseline reaching further back would
        // count hours with nothing in them as quiet ones.
        fraud.baseline = max(fraud.window, min(fraud.baseline, retention - fraud.window))
        fraud.countryMinSends = reader.value(Settings.fraudCountryMinSends)
        fraud.countryBlocks = reader.value(Settings.fraudCountryBlocks)
        fraud.countryClients = reader.value(Settings.fraudCountryClients)
        fraud.floor = reader.value(Settings.fraudFloor)
        fraud.proofRate = reader.value(Settings.fraudProofRate)
        fraud.steerToWhatsApp = reader.value(Settings.fraudSteer) == "whatsapp"
        testNumbers.codes = reader(Settings.testNumbers) ?? testNumbers.codes
        testNumbers.expiresAt = reader(Settings.testNumbersExpireAt) ?? testNumbers.expiresAt
    }
}
