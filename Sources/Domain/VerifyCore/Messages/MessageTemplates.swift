import Foundation
import Encoding

/// The SMS texts per language, and how a language is chosen for a message.
///
/// A template is plain text with the variables `{code}`, `{app}` and `{minutes}`; keys are
/// lowercase BCP 47 tags (`"pt"`, `"zh-hant"`, or an operator's `"pt-br"`). See docs/MESSAGES.md.
public struct MessageTemplates: Sendable, Equatable {
    /// The variables a template may use.
    public static let variables: Set<String> = ["code", "app", "minutes"]

    /// The language used when neither the locale nor the region picks one that has a template.
    public static let fallbackLanguage = "en"

    /// The built-in templates. The GSM-7 ones (en, es, fr, de, pt) avoid characters outside the
    /// GSM 7-bit alphabet so that they stay single-segment with the origin-bound line.
    public static let builtIn: [String: String] = [
        "en": "Your {app} code is {code}. It expires in {minutes} min. Don't share it.",
        "es": "Tu clave de {app} es {code}. Expira en {minutes} min. No la compartas.",
        "fr": "Votre code {app} est {code}. Il expire dans {minutes} min. Ne le partagez pas.",
        "de": "Ihr {app}-Code lautet {code}. Er ist {minutes} Min. gültig. Bitte nicht weitergeben.",
        "pt": "{app}: sua senha é {code}. Expira em {minutes} min. Nunca a compartilhe.",
        "hi": "आपका {app} कोड {code} है। {minutes} मिनट तक मान्य। साझा न करें।",
        "ar": arabicFew,
        "zh": "您的{app}验证码是{code}，{minutes}分钟内有效。请勿告诉他人。",
        "zh-hant": "您的{app}驗證碼是{code}，{minutes}分鐘內有效。請勿告訴他人。",
        "ja": "{app}の認証コードは{code}です。有効期限は{minutes}分です。他人に教えないでください。",
        "ru": "Код {app}: {code}. Действует {minutes} мин. Никому не сообщайте.",
    ]

    /// Arabic counts 3–10 with the plural "دقائق" and other numbers with the singular "دقيقة".
    static let arabicFew = "رمز {app} الخاص بك: {code}. صالح لمدة {minutes} دقائق. لا تشاركه."
    static let arabicOther = "رمز {app} الخاص بك: {code}. صالح لمدة {minutes} دقيقة. لا تشاركه."

    /// The language of a region (ISO 3166-1 alpha-2) when the request gives no usable locale.
    ///
    /// A region is listed when one official language is the usual written language for most of
    /// its people; multilingual regions without one (IN, SG, BE, CA…) are left out and get
    /// English. Regions whose language has no template (built-in or override) also get English.
    public static let regionLanguages: [String: String] = {
        var table: [String: String] = [:]
        let groups: [(String, String)] = [
            ("es", "ES MX AR CO CL PE VE EC GT CU BO DO HN PY SV NI CR PA UY PR GQ"),
            ("fr", "FR MC LU SN CI ML BF NE TG BJ GN CD CG GA CM TD CF HT MG BI DJ KM "
                + "RE GP MQ GF YT PF NC PM BL MF WF"),
            ("de", "DE AT CH LI"),
            ("pt", "BR PT AO MZ CV GW ST TL"),
            ("ar", "SA AE EG MA DZ TN LY IQ JO LB SY KW QA BH OM YE SD PS MR"),
            ("zh", "CN"),
            ("zh-hant", "TW HK MO"),
            ("ja", "JP"),
            ("ru", "RU BY KZ KG"),
            // No built-in template: used only when an operator adds one.
            ("it", "IT SM VA"), ("nl", "NL SR"), ("tr", "TR"), ("pl", "PL"), ("ko", "KR"),
            ("id", "ID"), ("vi", "VN"), ("th", "TH"), ("uk", "UA"), ("el", "GR"),
        ]
        for (language, regions) in groups {
            for region in regions.split(separator: " ") { table[String(region)] = language }
        }
        return table
    }()

    /// The templates in effect: the built-in ones, replaced or extended by valid overrides.
    public let templates: [String: String]

    /// Built-in templates with `overrides` (language tag → template) applied. An override whose
    /// key is not a language tag or whose template has problems is ignored (the built-in text is
    /// kept); ``TemplateComposer/validate(overrides:otpDomain:androidAppHash:)`` reports it.
    public init(overrides: [String: String] = [:]) {
        var templates = Self.builtIn
        for (key, template) in overrides {
            guard let tag = Self.normalizedTag(key), Self.problems(in: template).isEmpty else { continue }
            templates[tag] = template
        }
        self.templates = templates
    }

    /// The template key for a message: the first of the locale's candidates that has a template,
    /// else the region's language if it has one, else ``fallbackLanguage``.
    public func language(locale: String?, region: String) -> String {
        if let locale, let key = Self.candidates(forTag: locale).first(where: { templates[$0] != nil }) {
            return key
        }
        if let language = Self.regionLanguages[region.uppercased()],
            let key = Self.candidates(forTag: language).first(where: { templates[$0] != nil })
        {
            return key
        }
        return Self.fallbackLanguage
    }

    /// The template for `language` (a key from ``language(locale:region:)``) and a number of
    /// minutes; the built-in Arabic text agrees with the number.
    public func template(language: String, minutes: Int) -> String {
        let template = templates[language] ?? templates[Self.fallbackLanguage, default: ""]
        if template == Self.arabicFew && !(3...10).contains(minutes) { return Self.arabicOther }
        return template
    }

    /// Replaces `{code}`, `{app}` and `{minutes}` in one pass: substituted values are never
    /// scanned again, so an app name containing "{code}" stays literal. Other text, including
    /// unknown `{names}` and lone braces, is kept as written.
    public static func render(_ template: String, code: String, app: String, minutes: Int) -> String {
        let values = ["code": code, "app": app, "minutes": String(minutes)]
        var output = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            output += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"),
                let value = values[String(rest[afterOpen..<close])]
            {
                output += value
                rest = rest[rest.index(after: close)...]
            } else {
                output.append("{")
                rest = rest[afterOpen...]
            }
        }
        output += rest
        return output
    }

    /// What is wrong with a template: no `{code}`, or a `{name}` that is not a variable.
    public static func problems(in template: String) -> [String] {
        var problems: [String] = []
        if !template.contains("{code}") { problems.append("it must contain {code}") }
        for name in placeholders(in: template) where !variables.contains(name) {
            problems.append("unknown variable {\(name)} (use {code}, {app}, {minutes})")
        }
        return problems
    }

    /// Names written as `{name}` (letters, digits, `_`, `-`, `.`) in a template, in order.
    static func placeholders(in template: String) -> [String] {
        var names: [String] = []
        var current: String?
        for character in template {
            if character == "{" {
                current = ""
            } else if character == "}", let name = current {
                if !name.isEmpty { names.append(name) }
                current = nil
            } else if let name = current {
                let isNameCharacter = character.isLetter || character.isNumber || "_-.".contains(character)
                current = isNameCharacter ? name + String(character) : nil
            }
        }
        return names
    }

    /// A language tag in key form (`"pt_BR"` → `"pt-br"`), or nil when it is not one: a 2–3
    /// letter language subtag, then subtags of 1–8 letters or digits.
    public static func normalizedTag(_ tag: String) -> String? {
        let subtags = tag.trimmingCharacters(in: .whitespaces).lowercased()
            .replacingOccurrences(of: "_", with: "-").split(separator: "-", omittingEmptySubsequences: false)
        guard let language = subtags.first, (2...3).contains(language.count),
            language.allSatisfy(ASCII.isLetter),
            subtags.dropFirst().allSatisfy({
                (1...8).contains($0.count) && $0.allSatisfy(ASCII.isAlphanumeric)
            })
        else { return nil }
        return subtags.joined(separator: "-")
    }

    /// Keys to try for a locale, most specific first: the whole tag, language-script,
    /// language-region, language. Only the first entry of an Accept-Language style list counts;
    /// Chinese without a script gets Traditional for TW, HK and MO, and Simplified otherwise.
    static func candidates(forTag locale: String) -> [String] {
        let first = locale.split(separator: ",").first.map { $0.split(separator: ";").first ?? $0 } ?? ""
        guard let tag = normalizedTag(String(first)) else { return [] }
        let subtags = tag.split(separator: "-").map(String.init)
        let language = subtags[0]
        var script = subtags.dropFirst().first { $0.count == 4 && $0.allSatisfy(\.isLetter) }
        let region = subtags.dropFirst().first {
            ($0.count == 2 && $0.allSatisfy(\.isLetter)) || ($0.count == 3 && $0.allSatisfy(\.isNumber))
        }
        if language == "zh" && script == nil {
            script = ["tw", "hk", "mo"].contains(region ?? "") ? "hant" : "hans"
        }
        var keys = [tag]
        if let script { keys.append("\(language)-\(script)") }
        if let region { keys.append("\(language)-\(region)") }
        keys.append(language)
        var seen = Set<String>()
        return keys.filter { seen.insert($0).inserted }
    }
}
