import HTTPMessages
import Telemetry
import VerifyCore

/// Turns what handlers and the router throw into the one error shape of docs/ERRORS.md. An error
/// no handler expected is logged under the request id and answered with a 500 naming that id
/// (never its text, which may quote stored data).
struct ErrorMiddleware: Middleware {
    let logger: Logger

    func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        do {
            return try next(request, &context)
        } catch let error as VerifyError {
            return JSONResponse.error(error)
        } catch RoutingError.notFound {
            return JSONResponse.error(VerifyError(.notFound, "no route for \(request.method) \(request.path.prefix(200))"))
        } catch RoutingError.methodNotAllowed(let allowed) {
            return JSONResponse.error(
                VerifyError(.methodNotAllowed, "\(request.method) is not allowed here; use \(allowed.joined(separator: ", "))"),
                headers: ["Allow": allowed.joined(separator: ", ")])
        } catch {
            logger.unhandled(error, requestID: context.requestID, route: context.route)
            return JSONResponse.error(VerifyError(.internalError, "internal error; see the server log for request \(context.requestID)"))
        }
    }
}
