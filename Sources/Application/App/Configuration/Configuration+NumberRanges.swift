import SettingsTable

extension Configuration {
    /// Number ranges declared valid beyond libphonenumber's metadata (`Settings+NumberRanges.swift`).
    mutating func readNumberRanges(_ reader: inout SettingReader) {
        numberRanges = reader(Settings.numberRangesFile) ?? numberRanges
        defaultRegion = reader(Settings.defaultRegion) ?? defaultRegion
    }
}
