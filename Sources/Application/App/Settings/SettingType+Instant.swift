import Foundation
import SettingsTable

extension SettingType where Value == Date {
    /// "2027-01-31T00:00:00Z", or with an offset / fractional seconds.
    static var instant: Self {
        checked("RFC 3339 instant", problem: "must be an RFC 3339 instant such as 2027-01-31T00:00:00Z", Configuration.parseInstant)
    }
}
