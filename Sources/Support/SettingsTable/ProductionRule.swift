/// What production mode demands of a setting on top of a valid value. Declared in the settings
/// table beside the setting, so `config check` and start-up judge one list and a reviewer sees
/// the rule where the setting is defined. The rule reads the configuration read so far, whose
/// type the table does not know: the application's rules (`required`, `httpsOrLoopback`,
/// `check`) are built over its own configuration type.
public struct ProductionRule: Sendable {
    /// (the configuration read so far, whether the setting was given) → the problem's text
    /// (after the setting's name), or nil.
    private let rule: @Sendable (_ configuration: Any, _ given: Bool) -> String?

    public init(_ rule: @escaping @Sendable (_ configuration: Any, _ given: Bool) -> String?) {
        self.rule = rule
    }

    public static let none = ProductionRule { _, _ in nil }

    /// The problem of an effective URL that must be https, or http to this machine only: codes,
    /// vendor tokens and session-token keys travel over it.
    public static func httpsOrLoopbackProblem(_ url: String?) -> String? {
        guard let url, !SettingReader.isHTTPSOrLoopback(url) else { return nil }
        return "must be https in production mode (plain http only to a loopback address)"
    }

    /// The problem this rule finds in a valid configuration, or nil.
    public func problem(_ configuration: Any, given: Bool) -> String? {
        rule(configuration, given)
    }
}
