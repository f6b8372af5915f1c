import HTTPMessages

/// Answers preflights and adds the cross-origin fields of a ``CORSPolicy``: the middleware of the
/// client endpoints' groups (``RouteGroup/cors(_:logger:)``), only when origins are configured.
/// Group middleware runs inside the global error mapping, yet a browser must read refusals (a
/// 429's `Retry-After`) too: so this maps errors to their answers itself, with the same
/// ``ErrorMiddleware``, before it decorates.
struct CORSMiddleware: Middleware {
    let policy: CORSPolicy
    let errors: ErrorMiddleware

    func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        if let preflight = policy.preflight(request) {
            context.route = "preflight"
            return preflight
        }
        var response = try errors.respond(to: request, context: &context, next: next)
        policy.decorate(&response, for: request)
        return response
    }
}
