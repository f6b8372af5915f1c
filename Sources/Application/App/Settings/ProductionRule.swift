/// What production mode demands of a setting on top of a valid value. Declared in the settings
/// table beside the setting, so `config check` and start-up judge one list and a reviewer sees
/// the rule where the setting is defined.
public enum ProductionRule: Sendable {
    case none
    /// The setting must be given, when `applies` holds; `reason` ends the problem
    /// ("is required in production mode" + reason).
    case required(reason: String = "", applies: @Sendable (Configuration) -> Bool = { _ in true })
    /// The effective URL (nil: not used) must be https, or http to this machine only: codes,
    /// vendor tokens and session-token keys travel over it.
    case httpsOrLoopback(@Sendable (Configuration) -> String?)
    /// Any other demand: the problem's text (after the setting's name), or nil.
    case check(@Sendable (Configuration) -> String?)

    /// The problem this rule finds in a valid configuration, or nil.
    func problem(_ configuration: Configuration, given: Bool) -> String? {
        switch self {
        case .none: return nil
        case .required(let reason, let applies):
            return !given && applies(configuration) ? "is required in production mode" + reason : nil
        case .httpsOrLoopback(let effective):
            guard let url = effective(configuration), !SettingReader.isHTTPSOrLoopback(url) else { return nil }
            return "must be https in production mode (plain http only to a loopback address)"
        case .check(let problem): return problem(configuration)
        }
    }
}
