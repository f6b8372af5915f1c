import HTTPMessages

/// What the rest of the chain does with a request: the next middleware, or in the end the router.
/// Non-escaping, so calling it costs no allocation.
public typealias NextResponder = (HTTPRequest, inout RouteContext) throws -> HTTPResponse

/// One cross-cutting concern of the API (request ids, access log, metrics, CORS, error mapping, a
/// feature's own answers), in Hummingbird's shape: it may answer itself, or call `next` and look
/// at or change what comes back. Synchronous, because handlers run on libmicrohttpd's worker
/// threads (docs/ARCHITECTURE.md, "Request path and threads"); the context is `inout` so that
/// what the router learns (the route template) reaches the middleware around it.
public protocol Middleware: Sendable {
    func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse

    /// The 413 for a body over the server's limit at `path`, when this middleware's paths answer
    /// it in their own shape (the server answers before the chain runs); nil leaves it to others.
    func bodyTooLarge(path: String, limit: Int) -> HTTPResponse?
}

extension Middleware {
    public func bodyTooLarge(path: String, limit: Int) -> HTTPResponse? { nil }
}
