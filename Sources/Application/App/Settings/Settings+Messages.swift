import Foundation
import Gateways
import SettingsTable

/// The messages section of the settings table (read by `Configuration.readMessages`).
extension Settings {
    public static let appName = Setting<String>(
        "PHONE_VERIFY_APP_NAME", .messages, .text, defaultsTo: "PhoneVerify",
        "name in the SMS text")

    public static let otpDomain = Setting<String>(
        "PHONE_VERIFY_OTP_DOMAIN", .messages, .text, default: "(none)",
        "adds the origin-bound line \"@domain #code\" to messages")

    public static let androidAppHash = Setting<String>(
        "PHONE_VERIFY_ANDROID_APP_HASH", .messages, .text, default: "(none)",
        "11-character Android SMS Retriever app hash added to messages")

    public static let templatesFile = Setting<[String: String]>(
        "PHONE_VERIFY_TEMPLATES_FILE", .messages, .templatesFile, default: "(none)",
        "JSON object of message templates by language, e.g. {\"en\": \"{app}: {code}\"} (variables {code}, {app}, {minutes})")

    public static let voiceTemplatesFile = Setting<[String: VoiceLines]>(
        "PHONE_VERIFY_VOICE_TEMPLATES_FILE", .messages, .voiceTemplatesFile, default: "(none)",
        "JSON object of voice-call lines by language, e.g. {\"it\": {\"intro\": \"Il tuo codice {app} è:\", \"again\": \"Ripeto:\", \"closing\": \"Arrivederci.\"}} (replace or add languages; variable {app})")

    static let messagesSection: [any SettingEntry] = [appName, otpDomain, androidAppHash, templatesFile, voiceTemplatesFile]
}

extension SettingType where Value == [String: VoiceLines] {
    /// A JSON file of language → voice lines (`VoiceLines.overrides`).
    static var voiceTemplatesFile: Self {
        Self("JSON file") { file in
            guard let data = FileManager.default.contents(atPath: file) else { return (nil, ["must name a readable file"]) }
            let parsed = VoiceLines.overrides(json: data)
            return (parsed.problems.isEmpty ? parsed.lines : nil, parsed.problems)
        }
    }
}

extension SettingType where Value == [String: String] {
    /// A JSON file of language → template.
    static var templatesFile: Self {
        checked("JSON file", problem: "must name a readable JSON object of language → template strings") { file in
            FileManager.default.contents(atPath: file).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: String] }
        }
    }
}
