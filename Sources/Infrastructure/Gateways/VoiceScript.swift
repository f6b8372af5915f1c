import Foundation
import VerifyCore

/// The lines of a verification call in one language, written to be heard rather than read.
/// `{app}` in a line is replaced by the app's name.
public struct VoiceLines: Sendable, Equatable {
    /// Said before the code: "Your {app} verification code is".
    public var intro: String
    /// Said before the code the second time: "Once again, your code is".
    public var again: String
    /// Said last: "Do not share this code with anyone. Goodbye."
    public var closing: String
    /// The voice's locale for this language ("it-IT"): for languages an operator adds; the
    /// built-in ones have theirs (`VoiceScriptComposer.defaultSpeechLocales`).
    public var speechLocale: String?

    public init(intro: String, again: String, closing: String, speechLocale: String? = nil) {
        self.speechLocale = speechLocale
        self.intro = intro
        self.again = again
        self.closing = closing
    }
}

/// What a call says for one code: the code digit by digit, twice, between an intro and a closing
/// line, in the locale's language (English when there are no lines for it). Pure text; the
/// vendors' documents are built from it by ``twiml(voice:)`` and ``ncco(style:)``.
public struct VoiceScript: Sendable, Equatable {
    /// The key of the lines used ("en", "pt").
    public let language: String
    /// The BCP 47 locale the text-to-speech voice speaks ("en-US", "pt-BR").
    public let speechLocale: String
    /// Sentences said in order, with a pause of about a second between them.
    public let parts: [String]

    public init(language: String, speechLocale: String, parts: [String]) {
        self.language = language
        self.speechLocale = speechLocale
        self.parts = parts
    }

    /// The script as one text (console sink, dev inbox).
    public var text: String { parts.joined(separator: " ") }

    /// `A, 1, 2, 3` with commas, so that text-to-speech says each character on its own instead
    /// of reading "123456" as a number.
    public static func spelled(_ code: String) -> String {
        code.filter { !$0.isWhitespace }.map(String.init).joined(separator: ", ")
    }

    /// Twilio TwiML: one `<Say>` per part with a one-second `<Pause>` between them. Text and
    /// attributes are XML-escaped; `voice` is omitted when nil (Twilio's default voice).
    public func twiml(voice: String?) -> String {
        var attributes = #"language=""# + Self.xmlEscaped(speechLocale) + #"""#
        if let voice, !voice.isEmpty { attributes += #" voice=""# + Self.xmlEscaped(voice) + #"""# }
        let says = parts.map { "<Say \(attributes)>" + Self.xmlEscaped($0) + "</Say>" }
        return "<Response>" + says.joined(separator: #"<Pause length="1"/>"#) + "</Response>"
    }

    /// A Vonage NCCO: one `talk` action per part, in the speech locale and voice `style`.
    public func ncco(style: Int = 0) -> JSONValue {
        .array(parts.map { part in
            .object([
                JSONMember("action", "talk"), JSONMember("text", .string(part)),
                JSONMember("language", .string(speechLocale)), JSONMember("style", .int(Int64(style))),
            ])
        })
    }

    /// Escapes the five XML special characters, for text and double-quoted attributes alike, and
    /// drops the control characters XML 1.0 cannot carry at all.
    public static func xmlEscaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if character.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" }) {
                    continue
                }
                out.append(character)
            }
        }
        return out
    }
}
