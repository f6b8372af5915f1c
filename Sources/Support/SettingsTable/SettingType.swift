import Foundation

/// How a setting's text becomes its value, and the problems a bad text reports (each after the
/// variable's name: "PHONE_VERIFY_CODE_LENGTH must be a whole number from 4 to 10"). The
/// problem texts are read by operators and by tests, so they live here once per kind of value.
public struct SettingType<Value>: Sendable {
    /// What a value looks like, for `--help`-style listings.
    public let summary: String
    /// The value (nil: none usable) and every problem found. A value may come with problems
    /// when later checks still need it (a too-short secret is still "given").
    public let parse: @Sendable (String) -> (value: Value?, problems: [String])

    public init(_ summary: String, parse: @escaping @Sendable (String) -> (value: Value?, problems: [String])) {
        self.summary = summary
        self.parse = parse
    }

    /// A value or one fixed problem.
    public static func checked(_ summary: String, problem: String, _ convert: @escaping @Sendable (String) -> Value?) -> Self {
        Self(summary) { text in convert(text).map { ($0, []) } ?? (nil, [problem]) }
    }
}

extension SettingType where Value == String {
    /// Any text, used as given (trimmed).
    public static var text: Self { Self("text") { ($0, []) } }

    /// "https://x.example/" → "https://x.example" (OIDC Discovery §4 does the same before
    /// appending a path to an issuer).
    public static func withoutTrailingSlashes(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// An http(s) URL without a trailing slash (paths are appended to it).
    public static var url: Self {
        checked("http(s) URL", problem: "must be an http(s) URL") { text in
            guard text.hasPrefix("https://") || text.hasPrefix("http://"), URL(string: text)?.host != nil else { return nil }
            return Self.withoutTrailingSlashes(text)
        }
    }

    /// One of `allowed`, compared after `normalize`.
    public static func oneOf(_ allowed: [String], normalize: @escaping @Sendable (String) -> String = { $0 }) -> Self {
        let list = allowed.dropLast().joined(separator: ", ") + " or " + allowed[allowed.count - 1]
        return checked(list, problem: "must be " + list) { text in
            let value = normalize(text)
            return allowed.contains(value) ? value : nil
        }
    }

    /// A secret of at least `minimumLength` bytes. A short one is still returned: it is given,
    /// only too weak.
    public static func secret(minimumLength: Int, problem: String) -> Self {
        Self("secret, ≥ \(minimumLength) characters") { text in (text, text.utf8.count < minimumLength ? [problem] : []) }
    }
}

extension SettingType where Value == Int {
    public static func int(_ range: ClosedRange<Int>) -> Self {
        checked("whole number \(range.lowerBound)–\(range.upperBound)", problem: "must be a whole number from \(range.lowerBound) to \(range.upperBound)") {
            Int($0).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}

extension SettingType where Value == Double {
    /// A number from 0 to 1 (a ratio).
    public static var fraction: Self {
        checked("number 0–1", problem: "must be a number from 0 to 1") { Double($0).flatMap { (0...1).contains($0) ? $0 : nil } }
    }
}

extension SettingType where Value == Bool {
    /// true / false (also 1 / 0, on / off, yes / no).
    public static var flag: Self {
        checked("true or false", problem: "must be true or false") { text in
            switch text.lowercased() {
            case "true", "1", "on", "yes": return true
            case "false", "0", "off", "no": return false
            default: return nil
            }
        }
    }

    /// on / off (also true / false, 1 / 0).
    public static var onOff: Self {
        checked("on or off", problem: "must be on or off") { text in
            switch text.lowercased() {
            case "on", "true", "1": return true
            case "off", "false", "0": return false
            default: return nil
            }
        }
    }
}

extension SettingType where Value == [String] {
    /// A comma-separated list, items trimmed, empty items dropped.
    public static var list: Self { Self("comma-separated list") { (Self.items($0), []) } }

    /// A list whose every item must pass `problem` (nil: fine); all bad items are reported.
    public static func list(_ summary: String, problem: @escaping @Sendable (String) -> String?) -> Self {
        Self(summary) { text in
            let items = Self.items(text)
            return (items, items.compactMap(problem))
        }
    }

    public static func items(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

extension SettingType where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// A case of `Value`, compared after `normalize`, listed and refused as ``oneOf(_:normalize:)``
    /// lists and refuses its texts ("must be v2, v3 or enterprise"), so a typed setting keeps
    /// the words operators and tests read.
    public static func oneOf(_ type: Value.Type, normalize: @escaping @Sendable (String) -> String = { $0 }) -> Self {
        let allowed = Value.allCases.map(\.rawValue)
        let list = allowed.dropLast().joined(separator: ", ") + " or " + allowed[allowed.count - 1]
        return checked(list, problem: "must be " + list) { Value(rawValue: normalize($0)) }
    }
}

extension SettingType where Value: RawRepresentable & Sendable, Value.RawValue == String {
    /// A case of `Value`, by its raw value (case-insensitive).
    public static func choice(_ type: Value.Type) -> Self {
        Self("one of its values") { text in
            Value(rawValue: text.lowercased()).map { ($0, []) } ?? (nil, ["has an unknown value \"\(text)\""])
        }
    }
}

extension SettingType where Value == [String: String] {
    /// `key=value,key=value` (keys as given, values trimmed); every malformed item is reported.
    public static var pairs: Self {
        Self("key=value list") { text in
            var map: [String: String] = [:]
            var problems: [String] = []
            for item in SettingType<[String]>.items(text) {
                let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    problems.append("must be key=value pairs separated by commas (\"\(item)\" is not)")
                    continue
                }
                map[parts[0]] = parts[1]
            }
            return (map, problems)
        }
    }
}
