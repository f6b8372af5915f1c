@testable import App

/// The problems a configuration read from `environment` reports (empty when it loads): the one
/// helper the configuration suites share.
func problems(_ environment: [String: String]) -> [String] {
    do {
        _ = try Configuration.load(environment: environment)
        return []
    } catch let error as ConfigurationError {
        return error.problems
    } catch {
        return ["\(error)"]
    }
}
