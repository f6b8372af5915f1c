import Foundation

/// Picks the WhatsApp template language for a message's locale among the languages the
/// operator's template is approved in. WhatsApp names languages `en`, `en_US`, `pt_BR`, `zh_CN`…
/// (underscore, region upper-case); PhoneVerify locales are BCP 47 (`en`, `pt-BR`, `de`).
///
/// Order: an explicit override for the locale, the exact language and region, the bare language,
/// the first approved variant of the language (in the configured order), a known alias (`iw` →
/// `he`, `tl` → `fil`, `no` → `nb`, `in` → `id`), then the fallback.
public struct WhatsAppLanguage: Sendable, Equatable {
    /// Languages the template is approved in, in preference order, e.g. `["en_US", "de", "pt_BR"]`.
    public var approved: [String]
    /// Used when nothing matches (and when the message has no locale), e.g. `en_US`.
    public var fallback: String
    /// Locale (as written in messages, e.g. `es-419`) → WhatsApp language code, checked first.
    public var overrides: [String: String]

    static let aliases = ["iw": "he", "tl": "fil", "no": "nb", "in": "id"]

    public init(approved: [String] = [], fallback: String = "en_US", overrides: [String: String] = [:]) {
        self.approved = approved
        self.fallback = fallback
        self.overrides = overrides
    }

    /// `pt-br` / `pt_BR` / `PT-BR` → `pt_BR`; `en` → `en`; a script subtag (`zh-Hant-TW`) is dropped.
    public static func normalize(_ locale: String) -> String {
        let parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let language = parts.first?.lowercased(), !language.isEmpty else { return "" }
        // The region is the first 2-letter or 3-digit subtag after the language.
        let region = parts.dropFirst().first { ($0.count == 2 && $0.allSatisfy(\.isLetter)) || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }
        return region.map { language + "_" + $0.uppercased() } ?? language
    }

    /// The WhatsApp language code to send for `locale`.
    public func code(for locale: String?) -> String {
        guard let locale, !locale.isEmpty else { return fallback }
        if let explicit = overrides[locale] ?? overrides[Self.normalize(locale)] { return explicit }
        let wanted = Self.normalize(locale)
        let lowered = approved.map { ($0, Self.normalize($0).lowercased()) }
        if let exact = lowered.first(where: { $0.1 == wanted.lowercased() }) { return exact.0 }
        var language = String(wanted.prefix { $0 != "_" })
        language = Self.aliases[language] ?? language
        if let bare = lowered.first(where: { $0.1 == language }) { return bare.0 }
        if let variant = lowered.first(where: { $0.1.hasPrefix(language + "_") }) { return variant.0 }
        return fallback
    }
}
