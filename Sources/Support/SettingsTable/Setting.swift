/// One configuration setting, declared once in the settings table (`Settings+Section` files):
/// its variable, value type, default, meaning, masking, production rule and section. Parsing
/// (through `SettingReader`), `--help`, docs/CONFIGURATION.md, `config check` and masking all
/// read this declaration, so none of them can drift from the others.
public struct Setting<Value: Sendable>: SettingEntry {
    public let name: String
    public let section: SettingSection
    public let defaultValue: String
    public let help: String
    public let mask: SettingMask
    public let production: ProductionRule
    public let type: SettingType<Value>
    /// The value in force when the setting is unset or invalid, for entries declared with one
    /// (`defaultsTo:`); nil when the default is a description ("(none)", "the issuer").
    public let typedDefault: Value?

    public var typeSummary: String { type.summary }

    /// `secret: true` hides the whole value; otherwise `mask` says what `config check` hides.
    /// `defaultValue` is how `--help` and the docs describe the default ("(none)", "the issuer").
    public init(
        _ name: String, _ section: SettingSection, _ type: SettingType<Value>, default defaultValue: String, _ help: String,
        secret: Bool = false, mask: SettingMask = .urlCredentials, production: ProductionRule = .none
    ) {
        self.init(name, section, type, shown: defaultValue, typed: nil, help, mask: secret ? .secret : mask, production: production)
    }

    /// An entry whose default is a value: readers take it from here (``SettingReader/value(_:)``),
    /// never from a literal of their own; `shown` is how `--help` and the docs write it.
    public init(
        _ name: String, _ section: SettingSection, _ type: SettingType<Value>, defaultsTo value: Value, shown: String,
        _ help: String, secret: Bool = false, mask: SettingMask = .urlCredentials, production: ProductionRule = .none
    ) {
        self.init(name, section, type, shown: shown, typed: value, help, mask: secret ? .secret : mask, production: production)
    }

    private init(
        _ name: String, _ section: SettingSection, _ type: SettingType<Value>, shown: String, typed: Value?, _ help: String,
        mask: SettingMask, production: ProductionRule
    ) {
        self.name = name
        self.section = section
        self.type = type
        defaultValue = shown
        typedDefault = typed
        self.help = help
        self.mask = mask
        self.production = production
    }

    /// The typed default. Read only for entries declared with `defaultsTo:`; asking another
    /// entry is a programming error that every configuration test reaches.
    public var standard: Value {
        guard let typedDefault else { preconditionFailure("\(name) has no typed default in the settings table") }
        return typedDefault
    }
}

extension Setting where Value: SettingDefaultText {
    /// An entry whose default is a value written as `--help` shows it (6, console, https://…).
    public init(
        _ name: String, _ section: SettingSection, _ type: SettingType<Value>, defaultsTo value: Value, _ help: String,
        secret: Bool = false, mask: SettingMask = .urlCredentials, production: ProductionRule = .none
    ) {
        self.init(name, section, type, defaultsTo: value, shown: value.settingText, help, secret: secret, mask: mask, production: production)
    }
}

/// How a typed default is written in `--help` and docs/CONFIGURATION.md.
public protocol SettingDefaultText {
    var settingText: String { get }
}

extension Int: SettingDefaultText {
    public var settingText: String { String(self) }
}

extension String: SettingDefaultText {
    public var settingText: String { self }
}

extension Array: SettingDefaultText where Element == String {
    public var settingText: String { joined(separator: ",") }
}
