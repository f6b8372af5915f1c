import HTTPMessages
import Telemetry
import VerifyCore

/// The transport-free HTTP API: a middleware chain built once, at start-up, around the router
/// (request id → access log → metrics → CORS → error mapping → features' middleware → router).
/// The HTTP server calls it on its worker threads; tests call it directly.
public struct APIResponder: HTTPResponder {
    public let router: Router
    let chain: MiddlewareChain
    let clientIP: ClientIPResolver
    let random: any RandomSource
    let logger: Logger

    public init(_ dependencies: APIDependencies) {
        var router = Router()
        for group in Self.routeGroups(dependencies) { group.register(in: &router) }
        for feature in dependencies.features {
            for group in feature.routes { group.register(in: &router) }
        }
        var middleware: [any Middleware] = [
            RequestIDMiddleware(random: dependencies.random), AccessLogMiddleware(logger: dependencies.logger),
        ]
        if let metrics = dependencies.metrics { middleware.append(MetricsMiddleware(metrics: HTTPMetrics(metrics))) }
        if let cors = dependencies.cors { middleware.append(CORSMiddleware(policy: cors)) }
        middleware.append(ErrorMiddleware(logger: dependencies.logger))
        if let throttle = dependencies.authThrottle { middleware.append(AuthThrottleMiddleware(throttle: throttle, logger: dependencies.logger)) }
        middleware += dependencies.features.flatMap(\.middleware)
        let routes = router
        self.chain = MiddlewareChain(middleware) { request, context in try routes.respond(to: request, context: &context) }
        self.router = router
        self.clientIP = dependencies.clientIP
        self.random = dependencies.random
        self.logger = dependencies.logger
    }

    /// The core API's routes; a group whose dependency is absent has no routes at all.
    static func routeGroups(_ d: APIDependencies) -> [any RouteGroup] {
        var groups: [any RouteGroup] = [
            VerificationRoutes(service: d.service, clock: d.clock),
            DiscoveryRoutes(keys: d.keys, issuer: d.issuer, introspection: d.introspection != nil),
        ]
        if let registry = d.appAttest { groups.append(AppAttestRoutes(registry: registry, clock: d.clock)) }
        if let introspector = d.introspection { groups.append(IntrospectionRoutes(introspector: introspector, keys: d.apiKeys)) }
        groups.append(
            HealthRoutes(
                readiness: d.readiness, gatewayReadiness: d.gatewayReadiness, keys: d.apiKeys, reasonsNeedKey: d.observabilityNeedsKey))
        if let fraudAdmin = d.fraudAdmin { groups.append(AdminRoutes(fraud: fraudAdmin, mfa: d.mfa, keys: d.apiKeys)) }
        if let lockoutAdmin = d.lockoutAdmin { groups.append(LockoutRoutes(admin: lockoutAdmin, keys: d.apiKeys)) }
        if let limitsAdmin = d.limitsAdmin { groups.append(LimitsRoutes(admin: limitsAdmin, keys: d.apiKeys)) }
        if let admin = d.verificationAdmin { groups.append(VerificationAdminRoutes(admin: admin, keys: d.apiKeys)) }
        if let mfa = d.mfa { groups.append(MFARoutes(mfa: mfa, sessions: d.sessions ?? UnconfiguredSessions(), clock: d.clock)) }
        groups.append(OpenAPIRoutes())
        if let metrics = d.metrics { groups.append(MetricsRoutes(metrics: metrics, keys: d.apiKeys, needsKey: d.observabilityNeedsKey)) }
        return groups
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

    /// A feature that owns `path` may answer an oversized body in its own shape (Twilio's error
    /// body under `/v2`); elsewhere the server's own JSON error stands.
    public func bodyTooLarge(path: String, limit: Int) -> HTTPResponse? {
        for middleware in chain.middleware {
            guard var response = middleware.bodyTooLarge(path: path, limit: limit) else { continue }
            response.headers.set("X-Request-Id", random.identifier(prefix: "req_"))
            return response
        }
        return nil
    }
}
