/// Typed access to raw setting values that collects every problem instead of stopping at the first.
struct SettingReader {
    let values: [String: String]
    private(set) var problems: [String] = []

    init(values: [String: String]) {
        self.values = values
    }

    mutating func problem(_ name: String, _ message: String) {
        problems.append("\(name) \(message)")
    }

    /// The trimmed value, or nil when unset or empty.
    func string(_ name: String) -> String? {
        guard let raw = values[name] else { return nil }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A value some other setting needs; reports its absence.
    mutating func required(_ name: String, for user: String) -> String {
        guard let value = string(name) else {
            problem(name, "is required by \(user)")
            return ""
        }
        return value
    }

    /// An http(s) URL without a trailing slash.
    mutating func url(_ name: String) -> String? {
        guard var text = string(name) else { return nil }
        guard text.hasPrefix("https://") || text.hasPrefix("http://"), URL(string: text)?.host != nil else {
            problem(name, "must be an http(s) URL")
            return nil
        }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Whether `url` is https, or http to this machine only (127.0.0.0/8, ::1, localhost).
    static func isHTTPSOrLoopback(_ url: String) -> Bool {
        if url.hasPrefix("https://") { return true }
        guard let host = URL(string: url)?.host?.lowercased() else { return false }
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        // An IPv4 literal in 127.0.0.0/8, not a name that merely starts with "127." (127.evil.example).
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    mutating func int(_ name: String, in range: ClosedRange<Int>) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            problem(name, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return value
    }

    mutating func choice<T: RawRepresentable>(_ name: String, _ type: T.Type) -> T? where T.RawValue == String {
        guard let text = string(name) else { return nil }
        guard let value = T(rawValue: text.lowercased()) else {
            problem(name, "has an unknown value \"\(text)\"")
            return nil
        }
        return value
    }

    /// A comma-separated list, items trimmed, empty items dropped.
    /// true / false (also 1 / 0, on / off, yes / no).
    mutating func flag(_ name: String) -> Bool? {
        guard let text = string(name) else { return nil }
        switch text.lowercased() {
        case "true", "1", "on", "yes": return true
        case "false", "0", "off", "no": return false
        default:
            problem(name, "must be true or false")
            return nil
        }
    }

    func list(_ name: String) -> [String]? {
        string(name).map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }

    mutating func regions(_ name: String) -> Set<String> {
        let items = (list(name) ?? []).map { $0.uppercased() }
        for item in items where !(item.count == 2 && item.allSatisfy({ $0.isASCII && $0.isLetter })) {
            problem(name, "\"\(item)\" is not an ISO 3166-1 alpha-2 region code")
        }
        return Set(items)
    }
}

import Foundation
