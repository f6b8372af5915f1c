import Foundation

/// Operators' voice lines (`PHONE_VERIFY_VOICE_TEMPLATES_FILE`, docs/MESSAGES.md "Voice calls"):
/// a JSON object of language → `{"intro", "again", "closing"}`, each replacing or adding a
/// language of the built-in lines.
extension VoiceLines {
    /// The longest line accepted: a call that talks for a minute loses its listener.
    public static let maxLineLength = 200

    /// Parses the JSON document; returns the lines and one sentence per problem (a problem
    /// drops its language, never the whole file).
    public static func overrides(json: Data) -> (lines: [String: VoiceLines], problems: [String]) {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            return ([:], ["must be a JSON object of language → {\"intro\", \"again\", \"closing\"}"])
        }
        var lines: [String: VoiceLines] = [:]
        var problems: [String] = []
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            let language = key.lowercased()
            guard (2...3).contains(language.count), language.allSatisfy({ $0 >= "a" && $0 <= "z" }) else {
                problems.append("\"\(key)\" is not a language subtag (two or three letters: \"it\", \"pt\")")
                continue
            }
            guard let entry = value as? [String: Any], Set(entry.keys).subtracting(["speech_locale"]) == ["intro", "again", "closing"],
                let intro = entry["intro"] as? String, let again = entry["again"] as? String, let closing = entry["closing"] as? String
            else {
                problems.append("\"\(key)\" must have exactly the strings \"intro\", \"again\" and \"closing\" (and optionally \"speech_locale\")")
                continue
            }
            let speech = entry["speech_locale"] as? String
            if entry["speech_locale"] != nil && !(speech.map(Self.isSpeechLocale) ?? false) {
                problems.append("\"\(key)\": speech_locale must be a language and region like \"it-IT\"")
                continue
            }
            let bad = [intro, again, closing].compactMap(problem)
            guard bad.isEmpty else {
                problems.append("\"\(key)\": " + bad.joined(separator: "; "))
                continue
            }
            lines[language] = VoiceLines(intro: intro, again: again, closing: closing, speechLocale: speech)
        }
        return (lines, problems)
    }

    /// "it-IT", "en-US": the form both vendors name their voices' languages in.
    static func isSpeechLocale(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && (2...3).contains(parts[0].count) && parts[0].allSatisfy { $0 >= "a" && $0 <= "z" }
            && parts[1].count == 2 && parts[1].allSatisfy { $0 >= "A" && $0 <= "Z" }
    }

    /// Why a line cannot be said, or nil. The code is added after `intro` and `again` by the
    /// composer: a line names at most `{app}`.
    static func problem(_ line: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "a line is empty" }
        if line.count > maxLineLength { return "a line is longer than \(maxLineLength) characters" }
        if line.contains("{code}") { return "a line must not contain {code} (the call says the code after the intro and again)" }
        if line.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "a line contains control characters" }
        return nil
    }
}
