import SettingsTable
import TwilioCompatAPI
import API

/// The twilioCompat section of the settings table (read by `Configuration.readTwilioCompat`).
extension Settings {
    public static let twilioCompatCredentials = Setting<TwilioCompatCredentials>(
        "PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS", .twilioCompat, .twilioCompatCredentials, default: "(none: /v2 endpoints off)",
        "Twilio Verify v2-compatible API (/v2/Services…) credentials for HTTP Basic auth: ACxxx:auth_token and SKxxx:secret@ACxxx pairs, comma-separated (docs/TWILIO_COMPAT.md)",
        secret: true, production: .check(Configuration.weakTwilioCompatSecrets))

    public static let twilioCompatCustomCodeAccounts = Setting<[String]>(
        "PHONE_VERIFY_TWILIO_COMPAT_CUSTOM_CODE_ACCOUNTS", .twilioCompat, .list, default: "(none)",
        "account SIDs (AC…) of \(twilioCompatCredentials.name) whose services may use CustomCode, comma-separated; a custom code is chosen by the caller, so allow only accounts you trust with any number (docs/TWILIO_COMPAT.md)")

    static let twilioCompatSection: [any SettingEntry] = [twilioCompatCredentials, twilioCompatCustomCodeAccounts]
}

extension SettingType where Value == TwilioCompatCredentials {
    static var twilioCompatCredentials: Self {
        Self("ACxxx:token and SKxxx:secret@ACxxx pairs") { text in
            do { return (try TwilioCompatCredentials(parsing: text), []) } catch { return (nil, ["\(error)"]) }
        }
    }
}
