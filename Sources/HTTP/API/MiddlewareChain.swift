import HTTPMessages

/// Middleware folded around a final responder once, at start-up: a request then runs through
/// prebuilt closures, with no per-request array walk or allocation.
struct MiddlewareChain: Sendable {
    typealias Responder = @Sendable (HTTPRequest, inout RouteContext) throws -> HTTPResponse

    let middleware: [any Middleware]
    private let run: Responder

    /// `middleware` in request order: the first sees the request first and the response last.
    init(_ middleware: [any Middleware], around responder: @escaping Responder) {
        var next = responder
        for item in middleware.reversed() {
            let inner = next
            next = { request, context in try item.respond(to: request, context: &context, next: inner) }
        }
        self.middleware = middleware
        self.run = next
    }

    func respond(to request: HTTPRequest, context: inout RouteContext) throws -> HTTPResponse {
        try run(request, &context)
    }
}
