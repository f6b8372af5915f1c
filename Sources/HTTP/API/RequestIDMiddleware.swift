import Encoding
import HTTPMessages
import VerifyCore

/// Names every request: the caller's `X-Request-Id` when it is short and plain, otherwise a fresh
/// one. Handlers, logs and error bodies quote it, and every answer carries it back.
struct RequestIDMiddleware: Middleware {
    let random: any RandomSource

    func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        context.requestID = requestID(request)
        var response = try next(request, &context)
        response.headers.set("X-Request-Id", context.requestID)
        return response
    }

    private func requestID(_ request: HTTPRequest) -> String {
        if let given = request.headers["X-Request-Id"], !given.isEmpty, given.utf8.count <= 64,
            given.utf8.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == 45 || $0 == 95 || $0 == 46 })
        {
            return given
        }
        return random.identifier(prefix: "req_")
    }
}
