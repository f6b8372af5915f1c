import Foundation

/// Reads settings through their table entries and collects every problem instead of stopping
/// at the first, so an operator fixes a configuration in one round.
public struct SettingReader {
    public let values: [String: String]
    public private(set) var problems: [String] = []
    /// Settings that produced a value: production's "required" rules ask only about these.
    public private(set) var given: Set<String> = []

    /// Whether a setting is listed in the table (`--help`, the docs); a read of one that is not
    /// is a programming error, caught in debug builds.
    let listed: @Sendable (String) -> Bool

    public init(values: [String: String], listed: @escaping @Sendable (String) -> Bool = { _ in true }) {
        self.values = values
        self.listed = listed
    }

    public mutating func problem(_ setting: some SettingEntry, _ message: String) {
        problems.append("\(setting.name) \(message)")
    }

    /// The trimmed text, or nil when unset or empty.
    public func text(_ setting: some SettingEntry) -> String? {
        guard let raw = values[setting.name] else { return nil }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The setting's value, or nil when unset or invalid (its problems are recorded).
    public mutating func callAsFunction<Value>(_ setting: Setting<Value>) -> Value? {
        // A setting missing from the table would be read yet warned about as unknown, and be
        // absent from --help and the docs.
        assert(listed(setting.name), "\(setting.name) is not listed in its section of the settings table")
        guard let text = text(setting) else { return nil }
        let (value, problems) = setting.type.parse(text)
        for message in problems { problem(setting, message) }
        if value != nil { given.insert(setting.name) }
        return value
    }

    /// The setting's value, or the table's typed default when unset or invalid (problems are
    /// recorded as for `reader(setting)`). Only for entries declared with `defaultsTo:`.
    public mutating func value<Value>(_ setting: Setting<Value>) -> Value {
        self(setting) ?? setting.standard
    }

    /// A value some other setting needs (`user`: "the twilio gateway"); reports its absence.
    public mutating func required<Value>(_ setting: Setting<Value>, for user: String) -> Value? {
        if let value = self(setting) { return value }
        problem(setting, "is required by \(user)")
        return nil
    }

    /// Production mode's demands, in table order, on the configuration read so far.
    public mutating func checkProduction(_ configuration: Any, table: [any SettingEntry]) {
        for setting in table {
            if let message = setting.production.problem(configuration, given: given.contains(setting.name)) {
                problem(setting, message)
            }
        }
    }

    /// Whether `url` is https, or http to this machine only (127.0.0.0/8, ::1, localhost).
    public static func isHTTPSOrLoopback(_ url: String) -> Bool {
        if url.hasPrefix("https://") { return true }
        guard let host = URL(string: url)?.host?.lowercased() else { return false }
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        // An IPv4 literal in 127.0.0.0/8, not a name that merely starts with "127." (127.evil.example).
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
