/// Every setting PhoneVerify reads: the settings table. Each setting is declared once, in its
/// section's file (`Settings+Server.swift`, `Settings+Gateways.swift`, …), and that declaration
/// drives parsing, `phone-verify --help`, docs/CONFIGURATION.md (scripts/docs-settings, checked
/// by ConfigurationDocsTests), `config check`, masking and the production rules.
public enum Settings {
    /// Every setting variable starts with it; other variables are none of ours.
    public static let prefix = "PHONE_VERIFY_"

    /// In `--help` and docs order: by section, as the sections are listed in `SettingSection`.
    public static let all: [any SettingEntry] =
        serverSection + credentialsSection + codesSection + numberRangesSection + limitsSection + challengesSection + twilioCompatSection + apiKeysSection
        + gatewaysSection + channelsSection + eventsSection + messagesSection + mfaSection + operationsSection

    public static func named(_ name: String) -> (any SettingEntry)? { all.first { $0.name == name } }

    /// The text of `phone-verify --help`.
    public static var helpText: String {
        var lines = [
            "phone-verify — self-hosted phone OTP verification",
            "",
            "Usage: phone-verify [serve]            run the service (default)",
            "       phone-verify migrate            apply database migrations and exit",
            "       phone-verify backup FILE        a consistent copy of the SQLite database while it runs",
            "       phone-verify config check       validate the configuration, print effective settings (secrets redacted)",
            "       phone-verify keys list | rotate | retire KID",
            "                                       signing keys: rotation keeps old keys in JWKS until their credentials expire",
            "       phone-verify phone parse NUMBER [--region XX]",
            "                                       show how a number is parsed (JSON)",
            "       phone-verify fraud list | allow KEY | block KEY | clear KEY",
            "                                       SMS-pumping guard per prefix:+DIGITS or country:XX",
            "       phone-verify lockout list [NUMBER] | clear NUMBER",
            "                                       failed-check lockouts per number and requester; clear lifts a number's",
            "       phone-verify limits clear NUMBER    lift a number's send quota (every channel, window and requester)",
            "       phone-verify --help | --version",
            "",
            "Settings (environment variables, or KEY=VALUE lines in \(configFile.name)):",
        ]
        let width = (all.map(\.name.count).max() ?? 0) + 2
        for setting in all {
            lines.append("  " + setting.name.padding(toLength: width, withPad: " ", startingAt: 0) + "default: " + setting.defaultValue)
            lines.append("  " + String(repeating: " ", count: width) + setting.help)
        }
        return lines.joined(separator: "\n")
    }
}

import Foundation
import SettingsTable
