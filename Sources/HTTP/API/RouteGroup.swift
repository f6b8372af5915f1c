/// A set of routes registered together: a part of the API, or a feature's whole surface. Routes
/// that need an API key check it themselves through ``APIKeyring``, per group.
public protocol RouteGroup: Sendable {
    func register(in router: inout Router)
}

/// What a feature module (Twilio compatibility, the dev inbox) adds to the API: its routes and
/// the middleware its paths need. The core API target imports no feature; the application passes
/// them in (``APIDependencies/features``).
public struct APIFeature: Sendable {
    public var routes: [any RouteGroup]
    /// Runs inside error mapping, just around the router, in this order.
    public var middleware: [any Middleware]

    public init(routes: [any RouteGroup], middleware: [any Middleware] = []) {
        self.routes = routes
        self.middleware = middleware
    }
}
