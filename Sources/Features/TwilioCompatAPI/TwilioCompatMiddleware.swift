import API
import HTTPMessages
import VerifyCore

/// Answers in Twilio's error shape what the router or the server refuse under `/v2` (the
/// middleware of the `/v2` group, so it sees only those paths): a path with no route (404, code
/// 20404), a method a route does not take (405, 20004, with `Allow`), and a body over the
/// server's limit. A Twilio SDK then sees the errors it knows everywhere on its paths; elsewhere
/// the server's own JSON errors stand.
struct TwilioCompatMiddleware: Middleware {
    func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        do {
            return try next(request, &context)
        } catch RoutingError.notFound {
            return TwilioCompatError.notFound(request.path).response
        } catch RoutingError.methodNotAllowed(let allowed) {
            var error = TwilioCompatError(405, 20004, "Method not allowed")
            error.headers.set("Allow", allowed.joined(separator: ", "))
            return error.response
        } catch let error as VerifyError {
            // The group's own middleware (the credentials throttle) refuses in Twilio's shape too.
            return TwilioCompatError.from(error, path: request.path, operation: .other).response
        }
    }

    func bodyTooLarge(path: String, limit: Int) -> HTTPResponse? {
        return TwilioCompatError.from(
            VerifyError(.payloadTooLarge, "request body exceeds \(limit) bytes"), path: path, operation: .other
        ).response
    }
}
