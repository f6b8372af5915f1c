/// One configuration setting, declared once in the settings table (`Settings+Section` files):
/// its variable, value type, default, meaning, masking, production rule and section. Parsing
/// (through `SettingReader`), `--help`, docs/CONFIGURATION.md, `config check` and masking all
/// read this declaration, so none of them can drift from the others.
public struct Setting<Value>: SettingEntry {
    public let name: String
    public let section: SettingSection
    public let defaultValue: String
    public let help: String
    public let mask: SettingMask
    public let production: ProductionRule
    let type: SettingType<Value>

    public var typeSummary: String { type.summary }

    /// `secret: true` hides the whole value; otherwise `mask` says what `config check` hides.
    init(
        _ name: String, _ section: SettingSection, _ type: SettingType<Value>, default defaultValue: String, _ help: String,
        secret: Bool = false, mask: SettingMask = .urlCredentials, production: ProductionRule = .none
    ) {
        self.name = name
        self.section = section
        self.type = type
        self.defaultValue = defaultValue
        self.help = help
        self.mask = secret ? .secret : mask
        self.production = production
    }
}
