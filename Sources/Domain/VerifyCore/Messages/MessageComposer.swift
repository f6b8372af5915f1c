import Foundation
import Encoding

/// Writes the SMS text for a code.
public protocol MessageComposer: Sendable {
    /// The text to send: `code` valid for `ttlSeconds`, in the language picked from `locale`
    /// (BCP 47, from the request) or else from `region` (ISO 3166, of the phone number).
    func body(code: String, locale: String?, region: String, purpose: Purpose, ttlSeconds: Int) -> String
    /// The same text with another app name and Android app hash than the configured ones
    /// (nil keeps the configured one). Composers without such settings ignore them.
    func body(
        code: String, locale: String?, region: String, purpose: Purpose, ttlSeconds: Int, appName: String?, appHash: String?
    ) -> String
}

extension MessageComposer {
    public func body(
        code: String, locale: String?, region: String, purpose: Purpose, ttlSeconds: Int, appName: String?, appHash: String?
    ) -> String {
        body(code: code, locale: locale, region: region, purpose: purpose, ttlSeconds: ttlSeconds)
    }
}

/// The built-in templates: a short text per language (see ``MessageTemplates``), then, after a
/// blank line, the machine-readable lines:
///
/// ```
/// Your PhoneVerify code is 123456. It expires in 5 min. Don't share it.
///
/// FA+9qCX9VSu
/// @example.com #123456
/// ```
///
/// - the Android SMS Retriever app hash (11 characters) on a line of its own, when configured;
/// - the origin-bound line `@domain #code` (WICG sms-one-time-codes) when an OTP domain is
///   configured. It is always the last line: iOS, Safari and Chrome's WebOTP read only that line.
///
/// The purpose does not change the built-in wording. docs/MESSAGES.md has the full rules.
public struct TemplateComposer: MessageComposer {
    /// The name substituted for `{app}`.
    public let appName: String
    /// The host of the origin-bound line (`example.com`), or nil for no such line.
    public let otpDomain: String?
    /// The 11-character Android SMS Retriever hash of the app, or nil.
    public let androidAppHash: String?
    /// The templates in effect (built-in ones with valid overrides applied).
    public let templates: MessageTemplates

    /// A composer. `overrides` maps language tags (`"es"`, `"pt-BR"`, `"it"`) to templates that
    /// replace or add to the built-in ones; invalid entries are ignored (see ``validate(overrides:otpDomain:androidAppHash:)``).
    /// Blank `otpDomain` and `androidAppHash` count as not set.
    public init(
        appName: String = "PhoneVerify", otpDomain: String? = nil, androidAppHash: String? = nil,
        overrides: [String: String] = [:]
    ) {
        self.appName = appName
        self.otpDomain = Self.nonBlank(otpDomain)
        self.androidAppHash = Self.nonBlank(androidAppHash)
        self.templates = MessageTemplates(overrides: overrides)
    }

    /// The rendered template, then the app hash line and the origin-bound line when configured.
    public func body(code: String, locale: String?, region: String, purpose: Purpose, ttlSeconds: Int) -> String {
        body(code: code, locale: locale, region: region, purpose: purpose, ttlSeconds: ttlSeconds, appName: nil, appHash: nil)
    }

    /// The text with `appName` and `appHash` (when not nil or blank) instead of the configured ones.
    public func body(
        code: String, locale: String?, region: String, purpose: Purpose, ttlSeconds: Int, appName: String?, appHash: String?
    ) -> String {
        let minutes = max(1, (ttlSeconds + 59) / 60)
        let template = templates.template(language: language(locale: locale, region: region), minutes: minutes)
        var text = MessageTemplates.render(template, code: code, app: Self.nonBlank(appName) ?? self.appName, minutes: minutes)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        var trailer: [String] = []
        if let hash = Self.nonBlank(appHash) ?? androidAppHash { trailer.append(hash) }
        if let otpDomain { trailer.append("@\(otpDomain) #\(code)") }
        if !trailer.isEmpty { text += "\n\n" + trailer.joined(separator: "\n") }
        return text
    }

    /// The template key a message for `locale` and `region` is written with (e.g. `"pt"`).
    public func language(locale: String?, region: String) -> String {
        templates.language(locale: locale, region: region)
    }

    /// Problems with message settings, one sentence each, for the configuration checker: override
    /// keys that are not language tags, templates without `{code}` or with unknown variables, an
    /// OTP domain that is not a bare host name, an app hash that is not 11 base64 characters.
    /// An empty list means the settings are usable as given.
    public static func validate(
        overrides: [String: String], otpDomain: String? = nil, androidAppHash: String? = nil
    ) -> [String] {
        var problems: [String] = []
        for key in overrides.keys.sorted() {
            if MessageTemplates.normalizedTag(key) == nil {
                problems.append("message template key \"\(key)\" is not a language tag such as \"es\" or \"pt-BR\"")
            }
            for problem in MessageTemplates.problems(in: overrides[key] ?? "") {
                problems.append("message template \"\(key)\": \(problem)")
            }
        }
        if let domain = nonBlank(otpDomain), !isHostName(domain) {
            problems.append(
                "OTP domain \"\(domain)\" must be a bare host name such as example.com (no scheme, port, path or spaces)")
        }
        if let hash = nonBlank(androidAppHash), !isAppHash(hash) {
            problems.append("Android app hash \"\(hash)\" must be 11 characters of A–Z, a–z, 0–9, + or /")
        }
        return problems
    }

    /// Whether `value` is an ASCII host name: dot-separated labels of letters, digits and `-`.
    static func isHostName(_ value: String) -> Bool {
        let labels = value.split(separator: ".", omittingEmptySubsequences: false)
        return value.count <= 253 && labels.count >= 1
            && labels.allSatisfy { label in
                (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                    && label.allSatisfy { ASCII.isAlphanumeric($0) || $0 == "-" }
            }
    }

    /// Whether `value` has the shape of an SMS Retriever hash: 11 characters of base64.
    static func isAppHash(_ value: String) -> Bool {
        value.count == 11 && value.allSatisfy { ASCII.isAlphanumeric($0) || $0 == "+" || $0 == "/" }
    }

    private static func nonBlank(_ value: String?) -> String? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}
