import HTTPMessages

/// Answers preflights and adds the cross-origin fields of a ``CORSPolicy``; in the chain only
/// when origins are configured.
struct CORSMiddleware: Middleware {
    let policy: CORSPolicy

    func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        if let preflight = policy.preflight(request) {
            context.route = "preflight"
            return preflight
        }
        var response = try next(request, &context)
        policy.decorate(&response, for: request)
        return response
    }
}
