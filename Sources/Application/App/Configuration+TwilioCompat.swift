import API

extension Configuration {
    /// The Twilio-compatible API: its credentials and the accounts allowed custom codes (which
    /// must be among the credentials' accounts: a typo would silently allow nobody).
    mutating func readTwilioCompat(_ reader: inout SettingReader) {
        if let text = reader.string("PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS") {
            do {
                let credentials = try TwilioCompatCredentials(parsing: text)
                twilioCompatCredentials = credentials
                if mode == .production, !credentials.weakEntries(shorterThan: 16).isEmpty {
                    reader.problem(
                        "PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS",
                        "secrets must be at least 16 characters in production mode (weak: \(credentials.weakEntries(shorterThan: 16).joined(separator: ", ")))")
                }
            } catch {
                reader.problem("PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS", "\(error)")
            }
        }
        if let accounts = reader.list("PHONE_VERIFY_TWILIO_COMPAT_CUSTOM_CODE_ACCOUNTS") {
            let known = Set(twilioCompatCredentials?.entries.map(\.accountSID) ?? [])
            let unknown = accounts.filter { !known.contains($0) }
            if unknown.isEmpty { twilioCompatCustomCodeAccounts = Set(accounts) } else {
                reader.problem(
                    "PHONE_VERIFY_TWILIO_COMPAT_CUSTOM_CODE_ACCOUNTS",
                    "names accounts that are not in PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS: \(unknown.joined(separator: ", "))")
            }
        }
    }
}
