import Foundation

/// The messages section of the settings table (read by `Configuration.readMessages`).
extension Settings {
    public static let appName = Setting<String>(
        "PHONE_VERIFY_APP_NAME", .messages, .text, default: "PhoneVerify",
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

    static let messagesSection: [any SettingEntry] = [appName, otpDomain, androidAppHash, templatesFile]
}

extension SettingType where Value == [String: String] {
    /// A JSON file of language → template.
    static var templatesFile: Self {
        checked("JSON file", problem: "must name a readable JSON object of language → template strings") { file in
            FileManager.default.contents(atPath: file).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: String] }
        }
    }
}
