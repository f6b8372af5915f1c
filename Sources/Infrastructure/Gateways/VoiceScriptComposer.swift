import Foundation
import VerifyCore

/// Chooses the language of a verification call from the message's locale and writes its script.
///
/// The lines are keyed by lowercase language subtag ("en", "pt"); a locale whose language has
/// no lines is spoken in English. The speech locale keeps the region when the vendors have
/// voices for it (pt-PT, es-MX, en-GB, fr-CA…) and otherwise uses the language's default one.
public struct VoiceScriptComposer: Sendable {
    public static let fallbackLanguage = "en"

    /// Built-in lines: short sentences, no abbreviations or symbols a voice could misread.
    public static let builtIn: [String: VoiceLines] = [
        "en": VoiceLines(
            intro: "Your {app} verification code is:", again: "Once again, your code is:",
            closing: "Do not share this code with anyone. Goodbye."),
        "es": VoiceLines(
            intro: "Tu código de verificación de {app} es:", again: "Repito, tu código es:",
            closing: "No compartas este código con nadie. Adiós."),
        "fr": VoiceLines(
            intro: "Votre code de vérification {app} est :", again: "Je répète, votre code est :",
            closing: "Ne partagez ce code avec personne. Au revoir."),
        "de": VoiceLines(
            intro: "Ihr Bestätigungscode für {app} lautet:", again: "Noch einmal, Ihr Code lautet:",
            closing: "Geben Sie diesen Code niemandem weiter. Auf Wiederhören."),
        "pt": VoiceLines(
            intro: "Seu código de verificação de {app} é:", again: "Repetindo, seu código é:",
            closing: "Não compartilhe este código com ninguém. Até logo."),
    ]

    /// The speech locale of a language when the locale's region has no voice of its own.
    public static let defaultSpeechLocales: [String: String] = [
        "en": "en-US", "es": "es-ES", "fr": "fr-FR", "de": "de-DE", "pt": "pt-BR",
    ]

    /// Regional speech locales both Twilio (Amazon Polly) and Vonage have voices for.
    public static let regionalSpeechLocales: Set<String> = [
        "en-US", "en-GB", "en-AU", "en-IN", "es-ES", "es-MX", "es-US", "fr-FR", "fr-CA", "de-DE", "pt-BR", "pt-PT",
    ]

    /// Latin American Spanish ("es-419" and the region codes of Spanish-speaking America) is
    /// spoken with the Mexican voice.
    static let latinAmericanRegions: Set<String> = [
        "419", "AR", "BO", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "NI", "PA", "PE", "PR", "PY", "SV", "UY", "VE",
    ]

    public let lines: [String: VoiceLines]
    public let appName: String

    /// - Parameters:
    ///   - appName: said in the intro ("Your Acme verification code is").
    ///   - lines: the lines per language; the built-in ones by default. English must be present
    ///     (it is the fallback); when missing, the built-in English lines are used.
    public init(appName: String, lines: [String: VoiceLines] = VoiceScriptComposer.builtIn) {
        self.appName = appName
        var lines = lines
        if lines[Self.fallbackLanguage] == nil { lines[Self.fallbackLanguage] = Self.builtIn[Self.fallbackLanguage] }
        self.lines = lines
    }

    /// The script for `code` in `locale` (a BCP 47 tag or an Accept-Language value; nil = English).
    public func script(code: String, locale: String?) -> VoiceScript {
        let (language, region) = Self.parse(locale)
        let key = lines[language] != nil ? language : Self.fallbackLanguage
        let chosen = lines[key] ?? lines[Self.fallbackLanguage]!
        let spelled = VoiceScript.spelled(code) + "."
        let parts = [
            render(chosen.intro) + " " + spelled,
            render(chosen.again) + " " + spelled,
            render(chosen.closing),
        ]
        let speech = Self.speechLocale(language: key, region: key == language ? region : nil, fallback: chosen.speechLocale)
        return VoiceScript(language: key, speechLocale: speech, parts: parts)
    }

    private func render(_ line: String) -> String {
        MessageTemplates.render(line, code: "", app: appName, minutes: 0)
    }

    /// The speech locale for a language key and an optional region (uppercase).
    /// `fallback`: the speech locale an operator gave a language of their own.
    static func speechLocale(language: String, region: String?, fallback: String? = nil) -> String {
        if let region {
            let regional = language + "-" + (language == "es" && latinAmericanRegions.contains(region) ? "MX" : region)
            if regionalSpeechLocales.contains(regional) { return regional }
        }
        return fallback ?? defaultSpeechLocales[language] ?? language
    }

    /// Lowercase language and uppercase region (two letters or three digits) of the first tag of
    /// a locale ("pt_BR", "fr-CA", "es-419", "de-DE,de;q=0.9").
    static func parse(_ locale: String?) -> (language: String, region: String?) {
        guard let locale else { return (fallbackLanguage, nil) }
        let first = locale.split(separator: ",").first.map { $0.split(separator: ";").first ?? $0 } ?? ""
        let subtags = first.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-").split(separator: "-")
        guard let language = subtags.first?.lowercased(), !language.isEmpty else { return (fallbackLanguage, nil) }
        let region = subtags.dropFirst().first {
            ($0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isLetter }) || ($0.count == 3 && $0.allSatisfy { $0.isASCII && $0.isNumber })
        }
        return (language, region.map { $0.uppercased() })
    }
}
