import HTTPMessages
import Telemetry
import VerifyCore

/// The transport-free HTTP API: a middleware chain built once, at start-up, with what every
/// request needs (request id → access log → metrics → error mapping), around the groups' own
/// middleware (``GroupDispatch``: only the groups that own the request's path) and the router.
/// The HTTP server calls it on its worker threads; tests call it directly.
public struct APIResponder: HTTPResponder {
    public let router: Router
    let chain: MiddlewareChain
    let groups: GroupDispatch
    let clientIP: ClientIPResolver
    let random: any RandomSource
    let logger: Logger

    public init(_ dependencies: APIDependencies) {
        var router = Router()
        for group in dependencies.groups { group.register(in: &router) }
        var middleware: [any Middleware] = [
            RequestIDMiddleware(random: dependencies.random), AccessLogMiddleware(logger: dependencies.logger),
        ]
        if let metrics = dependencies.metrics { middleware.append(MetricsMiddleware(metrics: HTTPMetrics(metrics))) }
        middleware.append(ErrorMiddleware(logger: dependencies.logger))
        let groups = GroupDispatch(dependencies.groups, router: router)
        self.chain = MiddlewareChain(middleware) { request, context in try groups.respond(to: request, context: &context) }
        self.groups = groups
        self.router = router
        self.clientIP = dependencies.clientIP
        self.random = dependencies.random
        self.logger = dependencies.logger
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let client = clientIP.resolve(request)
        var context = RouteContext(requestID: "", clientIP: ClientIPResolver.limitKey(client), clientAddress: client)
        var response: HTTPResponse
        do {
            response = try chain.respond(to: request, context: &context)
        } catch {
            // Error mapping is in the chain; this is only a guard against a middleware that throws.
            logger.unhandled(error, requestID: context.requestID, route: context.route)
            response = JSONResponse.error(VerifyError(.internalError, "internal error; see the server log for request \(context.requestID)"))
        }
        // HEAD: libmicrohttpd leaves a byte body out itself and keeps its Content-Length (RFC 9110
        // §9.3.2: the same headers as GET); a stream (server-sent events) is not started at all.
        if request.method == "HEAD", case .stream = response.body { response.body = .bytes([]) }
        return response
    }

    /// A group that owns `path` may answer an oversized body in its own shape (Twilio's error
    /// body under `/v2`); elsewhere the server's own JSON error stands.
    public func bodyTooLarge(path: String, limit: Int) -> HTTPResponse? {
        for middleware in groups.chain(for: path).middleware {
            guard var response = middleware.bodyTooLarge(path: path, limit: limit) else { continue }
            response.headers.set("X-Request-Id", random.identifier(prefix: "req_"))
            return response
        }
        return nil
    }
}
