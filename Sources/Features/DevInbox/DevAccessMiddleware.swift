import API
import HTTPMessages

/// The `/dev` group's middleware: hides its paths from clients a ``DevAccess`` does not allow: they get the router's own 404, the
/// same answer as a path that does not exist, so nothing hints that a development server runs here.
struct DevAccessMiddleware: Middleware {
    let access: DevAccess

    func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        guard access.allows(client: context.clientAddress, host: request.headers["Host"]) else {
            throw RoutingError.notFound
        }
        return try next(request, &context)
    }
}
