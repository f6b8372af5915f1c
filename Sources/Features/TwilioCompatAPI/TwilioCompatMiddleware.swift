import API
import HTTPMessages
import VerifyCore

/// Answers in Twilio's error shape what the router or the server refuse under `/v2`: a path with
/// no route (404, code 20404), a method a route does not take (405, 20004, with `Allow`), and a
/// body over the server's limit. A Twilio SDK then sees the errors it knows everywhere on its
/// paths; elsewhere the server's own JSON errors stand.
struct TwilioCompatMiddleware: Middleware {
    /// Whether a path belongs to this API.
    /// Read as the router reads paths: empty segments do not count (`//v2/…` is `/v2/…`).
    static func owns(_ path: String) -> Bool { path.split(separator: "/", omittingEmptySubsequences: true).first == "v2" }

    func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        do {
            return try next(request, &context)
        } catch RoutingError.notFound where Self.owns(request.path) {
            return TwilioCompatError.notFound(request.path).response
        } catch RoutingError.methodNotAllowed(let allowed) where Self.owns(request.path) {
            var error = TwilioCompatError(405, 20004, "Method not allowed")
            error.headers.set("Allow", allowed.joined(separator: ", "))
            return error.response
        }
    }

    func bodyTooLarge(path: String, limit: Int) -> HTTPResponse? {
        guard Self.owns(path) else { return nil }
        return TwilioCompatError.from(
            VerifyError(.payloadTooLarge, "request body exceeds \(limit) bytes"), path: path, operation: .other
        ).response
    }
}
