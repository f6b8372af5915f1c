import API
import SettingsTable
import TwilioCompatAPI

extension Configuration {
    /// Shortest secret production accepts in the Twilio-compatible credentials.
    static let minimumTwilioCompatSecretLength = 16

    /// The Twilio-compatible API: its credentials and the accounts allowed custom codes (which
    /// must be among the credentials' accounts: a typo would silently allow nobody).
    mutating func readTwilioCompat(_ reader: inout SettingReader) {
        twilioCompatCredentials = reader(Settings.twilioCompatCredentials)
        if let accounts = reader(Settings.twilioCompatCustomCodeAccounts) {
            let known = Set(twilioCompatCredentials?.entries.map(\.accountSID) ?? [])
            let unknown = accounts.filter { !known.contains($0) }
            if unknown.isEmpty { twilioCompatCustomCodeAccounts = Set(accounts) } else {
                reader.problem(
                    Settings.twilioCompatCustomCodeAccounts,
                    "names accounts that are not in \(Settings.twilioCompatCredentials.name): \(unknown.joined(separator: ", "))")
            }
        }
    }

    /// Production rule of the credentials: a short auth token or API key secret is guessable.
    static func weakTwilioCompatSecrets(_ configuration: Configuration) -> String? {
        let weak = configuration.twilioCompatCredentials?.weakEntries(shorterThan: minimumTwilioCompatSecretLength) ?? []
        guard !weak.isEmpty else { return nil }
        return "secrets must be at least \(minimumTwilioCompatSecretLength) characters in production mode (weak: \(weak.joined(separator: ", ")))"
    }
}
