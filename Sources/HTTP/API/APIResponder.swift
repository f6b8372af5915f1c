import Foundation
import HTTPMessages
import Telemetry
import VerifyCore
import Encoding

/// Everything the API needs, passed in by the application.
public struct APIDependencies: Sendable {
    public var service: VerificationService
    public var keys: any KeyRing
    public var issuer: String
    public var clock: any Clock
    public var random: any RandomSource
    public var logger: Logger
    /// Readiness probe: throws with a reason when the service should not get traffic.
    public var readiness: @Sendable () throws -> Void
    /// The gateways' part of readiness (`/readyz`, unless asked with `gateways=false`).
    public var gatewayReadiness: @Sendable () throws -> Void = {}
    /// Present only in development mode: enables `/dev/…`.
    public var devMessages: (any DevMessageLog)?
    /// Who may reach `/dev/…` (loopback clients only unless exposed).
    public var devAccess = DevAccess()
    public var clientIP: ClientIPResolver
    /// Operators' fraud controls; admin routes exist only when set.
    public var fraudAdmin: FraudAdmin?
    /// Operators' failed-check lockouts (`/v1/admin/lockouts`); no routes when nil.
    public var lockoutAdmin: LockoutAdmin?
    /// The server-to-server API keys and their scopes (admin, introspection, metrics routes).
    public var apiKeys = APIKeyring()
    /// MFA; its routes answer 503 until a session verifier is configured.
    /// Production: `/metrics` needs a key of scope `metrics`, and `/readyz` gives its reasons
    /// only to a key of scope `metrics` or `read` (per-country counts and store errors are not
    /// for anyone who can reach the port). Development leaves both open.
    public var observabilityNeedsKey = false
    /// Metrics registry; `/metrics` serves it when set.
    public var metrics: MetricsRegistry?
    public var mfa: MFAService?
    public var sessions: (any SessionVerifier)?
    /// Delivery receipts from vendors; callback routes exist only when set.
    public var receipts: DeliveryReceipts?
    public var callbackAuth = CallbackAuthenticators(publicURL: "")
    /// RFC 7662 introspection of credentials (admin API key); no route when nil.
    public var introspection: CredentialIntrospector?
    /// The Twilio Verify v2-compatible API (`/v2/…`); off (no routes) when nil.
    public var twilioCompat: TwilioCompatDependencies?
    /// Browser origins allowed to call the client endpoints directly; none when nil.
    public var cors: CORSPolicy?

    public init(
        service: VerificationService, keys: any KeyRing, issuer: String, clock: any Clock, random: any RandomSource,
        logger: Logger, readiness: @escaping @Sendable () throws -> Void, devMessages: (any DevMessageLog)?,
        clientIP: ClientIPResolver = ClientIPResolver()
    ) {
        self.service = service
        self.keys = keys
        self.issuer = issuer
        self.clock = clock
        self.random = random
        self.logger = logger
        self.readiness = readiness
        self.devMessages = devMessages
        self.clientIP = clientIP
    }
}

/// Stands in when no main auth server is configured: MFA is unavailable.
struct UnconfiguredSessions: SessionVerifier {
    func verify(_ token: String) throws -> Principal {
        throw VerifyError(.unavailable, "MFA is not configured: set PHONE_VERIFY_AUTH_CORE_JWKS_URL, _JWKS_FILE or _HS256_SECRET")
    }
}

/// The transport-free HTTP API: routing, request ids, access logs and error mapping.
/// The HTTP server calls it on its worker threads; tests call it directly.
public struct APIResponder: HTTPResponder {
    public let router: Router
    let dependencies: APIDependencies
    let httpMetrics: HTTPMetrics?

    public init(_ dependencies: APIDependencies) {
        var router = Router()
        VerificationRoutes(service: dependencies.service, clock: dependencies.clock).register(in: &router)
        DiscoveryRoutes(keys: dependencies.keys, issuer: dependencies.issuer, introspection: dependencies.introspection != nil)
            .register(in: &router)
        if let introspector = dependencies.introspection {
            IntrospectionRoutes(introspector: introspector, keys: dependencies.apiKeys).register(in: &router)
        }
        HealthRoutes(
            readiness: dependencies.readiness, gatewayReadiness: dependencies.gatewayReadiness, keys: dependencies.apiKeys,
            reasonsNeedKey: dependencies.observabilityNeedsKey
        ).register(in: &router)
        if let fraudAdmin = dependencies.fraudAdmin {
            AdminRoutes(fraud: fraudAdmin, mfa: dependencies.mfa, keys: dependencies.apiKeys).register(in: &router)
        }
        if let lockoutAdmin = dependencies.lockoutAdmin {
            LockoutRoutes(admin: lockoutAdmin, keys: dependencies.apiKeys).register(in: &router)
        }
        if let mfa = dependencies.mfa {
            MFARoutes(mfa: mfa, sessions: dependencies.sessions ?? UnconfiguredSessions(), clock: dependencies.clock).register(in: &router)
        }
        if let receipts = dependencies.receipts {
            DeliveryCallbackRoutes(receipts: receipts, auth: dependencies.callbackAuth).register(in: &router)
        }
        if let twilioCompat = dependencies.twilioCompat {
            TwilioCompatRoutes(dependencies: twilioCompat, logger: dependencies.logger).register(in: &router)
        }
        if let devMessages = dependencies.devMessages {
            DevRoutes(messages: devMessages, service: dependencies.service).register(in: &router)
            DevInboxRoutes(messages: devMessages, service: dependencies.service, random: dependencies.random).register(in: &router)
        }
        let openAPI = Array(OpenAPIDocument.json.utf8)
        router.add("GET", "/openapi.json") { _, _ in
            HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300"],
                body: openAPI)
        }
        if let metrics = dependencies.metrics {
            let keys = dependencies.apiKeys
            let needsKey = dependencies.observabilityNeedsKey
            router.add("GET", "/metrics") { request, _ in
                if needsKey { try keys.require(request, .metrics) }
                return HTTPResponse(status: 200, headers: ["Content-Type": MetricsRegistry.contentType], body: Array(metrics.render().utf8))
            }
        }
        self.router = router
        self.dependencies = dependencies
        self.httpMetrics = dependencies.metrics.map(HTTPMetrics.init)
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let started = DispatchTime.now().uptimeNanoseconds
        let client = dependencies.clientIP.resolve(request)
        var context = RouteContext(requestID: requestID(request), clientIP: ClientIPResolver.limitKey(client), clientAddress: client)
        var response = route(request, &context)
        response.headers.set("X-Request-Id", context.requestID)
        // HEAD: libmicrohttpd leaves a byte body out itself and keeps its Content-Length (RFC 9110
        // §9.3.2: the same headers as GET); a stream (server-sent events) is not started at all.
        if request.method == "HEAD", case .stream = response.body { response.body = .bytes([]) }
        let micros = (DispatchTime.now().uptimeNanoseconds - started) / 1000
        httpMetrics?.observe(
            route: context.route.isEmpty ? "unmatched" : context.route, method: request.method, status: response.status,
            seconds: Double(micros) / 1e6)
        let logger = dependencies.logger
        if logger.isEnabled(.info) {
            logger.info("request", [
                ("request_id", context.requestID), ("method", request.method),
                ("route", context.route.isEmpty ? "unmatched" : context.route), ("status", String(response.status)),
                ("latency_ms", String(Double(micros) / 1000)), ("client_ip", context.clientIP),
            ])
        }
        return response
    }

    private func route(_ request: HTTPRequest, _ context: inout RouteContext) -> HTTPResponse {
        guard let cors = dependencies.cors else { return routed(request, &context) }
        if let preflight = cors.preflight(request) {
            context.route = "preflight"
            return preflight
        }
        var response = routed(request, &context)
        cors.decorate(&response, for: request)
        return response
    }

    private func routed(_ request: HTTPRequest, _ context: inout RouteContext) -> HTTPResponse {
        guard dependencies.devAccess.allows(path: request.path, client: context.clientAddress) else {
            // The same answer as a path that does not exist: no hint that a dev server runs here.
            return JSONResponse.error(VerifyError(.notFound, "no route for \(request.method) \(request.path.prefix(200))"))
        }
        switch router.match(method: request.method, path: request.path) {
        case .notFound:
            if dependencies.twilioCompat != nil && TwilioCompatRoutes.owns(request.path) {
                return TwilioCompatError.notFound(request.path).response
            }
            return JSONResponse.error(VerifyError(.notFound, "no route for \(request.method) \(request.path.prefix(200))"))
        case .methodNotAllowed(let allowed, let template):
            context.route = template
            if dependencies.twilioCompat != nil && TwilioCompatRoutes.owns(request.path) {
                var error = TwilioCompatError(405, 20004, "Method not allowed")
                error.headers.set("Allow", allowed.joined(separator: ", "))
                return error.response
            }
            return JSONResponse.error(
                VerifyError(.methodNotAllowed, "\(request.method) is not allowed here; use \(allowed.joined(separator: ", "))"),
                headers: ["Allow": allowed.joined(separator: ", ")])
        case .found(let handler, let template, let parameters):
            context.route = template
            context.parameters = parameters
            do {
                return try handler(request, context)
            } catch let error as VerifyError {
                return JSONResponse.error(error)
            } catch {
                dependencies.logger.unhandled(error, requestID: context.requestID, route: template)
                return JSONResponse.error(VerifyError(.internalError, "internal error; see the server log for request \(context.requestID)"))
            }
        }
    }

    /// The Twilio-compatible API answers an oversized body with Twilio's error body, like every
    /// other error of its paths; elsewhere the server's own JSON error stands.
    public func bodyTooLarge(path: String, limit: Int) -> HTTPResponse? {
        guard dependencies.twilioCompat != nil, TwilioCompatRoutes.owns(path) else { return nil }
        var response = TwilioCompatError.from(
            VerifyError(.payloadTooLarge, "request body exceeds \(limit) bytes"), path: path, operation: .other
        ).response
        response.headers.set("X-Request-Id", dependencies.random.identifier(prefix: "req_"))
        return response
    }

    /// The caller's `X-Request-Id` when it is short and plain, otherwise a fresh one.
    private func requestID(_ request: HTTPRequest) -> String {
        if let given = request.headers["X-Request-Id"], !given.isEmpty, given.utf8.count <= 64,
            given.utf8.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == 45 || $0 == 95 || $0 == 46 })
        {
            return given
        }
        return dependencies.random.identifier(prefix: "req_")
    }
}
