import SettingsTable

/// The production rules of the application's settings, each over its `Configuration`.
extension ProductionRule {
    /// The setting must be given, when `applies` holds; `reason` ends the problem
    /// ("is required in production mode" + reason).
    static func required(reason: String = "", applies: @escaping @Sendable (Configuration) -> Bool = { _ in true }) -> Self {
        ProductionRule { configuration, given in
            guard !given, let c = configuration as? Configuration, applies(c) else { return nil }
            return "is required in production mode" + reason
        }
    }

    /// The effective URL (nil: not used) must be https, or http to this machine only.
    static func httpsOrLoopback(_ effective: @escaping @Sendable (Configuration) -> String?) -> Self {
        ProductionRule { configuration, _ in
            (configuration as? Configuration).flatMap { httpsOrLoopbackProblem(effective($0)) }
        }
    }

    /// Any other demand: the problem's text (after the setting's name), or nil.
    static func check(_ problem: @escaping @Sendable (Configuration) -> String?) -> Self {
        ProductionRule { configuration, _ in (configuration as? Configuration).flatMap(problem) }
    }
}
