/// A set of routes built apart and registered together (Hummingbird's route collection): a part
/// of the API, or a feature's pages. A ``RouteGroup`` gives them their path prefix and middleware.
public protocol RouteCollection: Sendable {
    func register(in router: inout Router)
}
