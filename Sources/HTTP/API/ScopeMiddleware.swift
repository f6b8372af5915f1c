import HTTPMessages

/// The API-key check of a group whose routes share a scope (``RouteGroup/routeMiddleware``, so it
/// runs once a route matched: 404 and 405 come first): a change needs `scope`; a read (`GET`,
/// `HEAD`) needs `scope` or `readers` (by default `read`, the scope of read-only operator keys).
/// Refusals are ``APIKeyring/require(_:anyOf:)``'s: 401 without a known key or session, 403
/// outside its scopes.
public struct ScopeMiddleware: Middleware {
    let keys: APIKeyring
    let changes: [APIScope]
    let reads: [APIScope]

    /// `readers: nil`: reads need `scope` too (`/metrics`).
    public init(_ keys: APIKeyring, _ scope: APIScope, readers: APIScope? = .read) {
        self.keys = keys
        changes = [scope]
        reads = readers.map { $0 == scope ? [scope] : [scope, $0] } ?? [scope]
    }

    public func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        let reading = request.method == "GET" || request.method == "HEAD"
        try keys.require(request, anyOf: reading ? reads : changes)
        return try next(request, &context)
    }
}
