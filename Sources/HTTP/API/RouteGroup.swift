/// A part of the API in Hummingbird's shape: a path prefix, the middleware of the paths under it,
/// and its routes. The application hands ``APIResponder`` a list of groups, each one it chose to
/// include (an admin area, introspection, a feature such as `/v2`); a request passes only the
/// middleware of the groups that own its path.
///
/// Two kinds of middleware, because some answers must come before routing and some after:
/// - ``middleware`` runs for every request under ``prefix``, around routing, so it sees the
///   group's 404 and 405 too (Twilio's error shape under `/v2`, the dev inbox's access check, the
///   console's headers). Groups with the same prefix, or nested ones, pass a request through the
///   shorter prefix's middleware first, then in the order the application listed them.
/// - ``routeMiddleware`` runs around each of the group's own routes once the router matched one
///   (Hummingbird's group middleware): the API-key scope (``ScopeMiddleware``), so an unknown
///   path or method still answers 404 or 405 before any 401.
public struct RouteGroup: Sendable {
    public var prefix: PathPrefix
    public var middleware: [any Middleware]
    public var routeMiddleware: [any Middleware]
    public var routes: [any RouteCollection]

    /// `routes` must lie under `prefix` (checked when the API is built).
    public init(
        _ prefix: String, middleware: [any Middleware] = [], routeMiddleware: [any Middleware] = [], routes: [any RouteCollection] = []
    ) {
        self.prefix = PathPrefix(prefix)
        self.middleware = middleware
        self.routeMiddleware = routeMiddleware
        self.routes = routes
    }

    /// Adds the group's routes to `router`, each handler behind ``routeMiddleware``.
    func register(in router: inout Router) {
        var own = Router()
        for collection in routes { collection.register(in: &own) }
        // A route outside its group's prefix would skip the group's middleware (its key check):
        // refused at start-up in every build, not only in debug ones.
        precondition(own.table.allSatisfy { prefix.owns($0.template) }, "a route of the group \(prefix) lies outside its prefix")
        router.add(own, through: routeMiddleware)
    }
}
