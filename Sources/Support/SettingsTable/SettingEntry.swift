/// A setting without its value type: what `--help`, docs/CONFIGURATION.md, `config check`,
/// unknown-variable warnings and the production rules need, so `Settings.all` can list
/// settings of every type in one array.
public protocol SettingEntry: Sendable {
    var name: String { get }
    var section: SettingSection { get }
    /// The default as `--help` shows it (a value, or a description such as "(none)").
    var defaultValue: String { get }
    var help: String { get }
    /// How `config check` shows the value (secrets: not at all).
    var mask: SettingMask { get }
    var production: ProductionRule { get }
    /// What a value looks like ("whole number 1–256", "http(s) URL", …).
    var typeSummary: String { get }
}

extension SettingEntry {
    /// Never shown, logged or echoed in a problem.
    public var secret: Bool { mask == .secret }
}
