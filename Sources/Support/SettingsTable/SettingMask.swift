/// How `phone-verify config check` shows a setting's value. Its output is pasted into tickets
/// and chat, so nothing that grants access may appear in it: secrets not at all, test numbers
/// without their fixed codes (a code is a password for that number), and every other value
/// without the credentials a URL can carry in its user-info (`https://user:pass@host/…`).
public enum SettingMask: Sendable, Equatable {
    /// The whole value is a secret: only whether it is set is shown.
    case secret
    /// `+E164:CODE,…`: the numbers are shown, the codes are not.
    case testNumberCodes
    /// Shown as given, except the user-info and query of any URL in it.
    case urlCredentials

    public static let redacted = "(redacted)"

    /// `value` as `config check` prints it.
    public func display(_ value: String) -> String {
        switch self {
        case .secret: return "(set, redacted)"
        case .testNumberCodes:
            // Only a well-formed "+digits:" prefix is shown: in a mistyped entry (`=` for `:`, the
            // code first) nothing tells the code from the number.
            return value.split(separator: ",", omittingEmptySubsequences: false).map { entry in
                let trimmed = entry.trimmingCharacters(in: .whitespaces)
                guard let colon = trimmed.firstIndex(of: ":"), trimmed.hasPrefix("+"),
                    trimmed[trimmed.index(after: trimmed.startIndex)..<colon].allSatisfy({ $0.isASCII && $0.isNumber })
                else { return Self.redacted }
                return trimmed[...colon] + Self.redacted
            }.joined(separator: ",")
        case .urlCredentials: return Self.withoutQueries(Self.withoutURLCredentials(value))
        }
    }

    /// Replaces the user-info of every `scheme://user-info@host` in `text` (a list may hold
    /// several URLs) with "(redacted)": user names can be tokens too.
    public static func withoutURLCredentials(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let separator = rest.range(of: "://") {
            result += rest[..<separator.upperBound]
            rest = rest[separator.upperBound...]
            let authorityEnd = rest.firstIndex { "/?#, \t".contains($0) } ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                result += redacted
                rest = rest[at...]
            }
        }
        return result + rest
    }

    /// Replaces every query string (`?…` up to a space, comma or fragment) with "(redacted)":
    /// webhook and callback URLs often carry their token there.
    public static func withoutQueries(_ text: String) -> String {
        var result = ""
        var inQuery = false
        for character in text {
            if inQuery {
                guard " \t,#".contains(character) else { continue }
                inQuery = false
            } else if character == "?" {
                result += "?" + redacted
                inQuery = true
                continue
            }
            result.append(character)
        }
        return result
    }
}
