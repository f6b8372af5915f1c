import HTTPMessages
import Telemetry
import VerifyCore

/// Slows down key guessing (docs/OPERATIONS.md, "Sign-in throttle"): a console sign-in
/// (`POST /console/session`) answered 401, or a bearer key refused as unknown on a route that
/// takes API keys (`/v1/admin/…`, `/v1/credentials/introspect`, `/metrics`), counts as a failure
/// of the client's IP. Past the free failures, the client's next attempts get 429
/// `rate_limited` with a truthful `Retry-After` until its wait is over — valid keys included,
/// or the throttle would still let guesses through. Other clients are never affected.
struct AuthThrottleMiddleware: Middleware {
    let throttle: AuthThrottle
    let logger: Logger

    /// Whether `request` presents a key to be checked: the console's sign-in form, or a bearer
    /// key on a route that takes API keys (MFA's bearer session tokens are not keys).
    static func isKeyAttempt(_ request: HTTPRequest) -> Bool {
        if request.method == "POST" && request.path == "/console/session" { return true }
        guard APIKeyring.bearer(request) != nil else { return false }
        let path = request.path
        return path.hasPrefix("/v1/admin/") || path == "/v1/credentials/introspect" || path == "/metrics"
    }

    func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        guard Self.isKeyAttempt(request) else { return try next(request, &context) }
        let client = context.clientIP
        if let wait = try throttle.wait(client: client) {
            throw VerifyError(
                .rateLimited, "too many failed sign-ins or API keys from this address; try again in \(wait) s",
                details: ["scope": "auth"], retryAfter: wait)
        }
        do {
            let response = try next(request, &context)
            if response.status == 401 { fail(client, context) }
            return response
        } catch let error as VerifyError where error.code == .unauthenticated {
            fail(client, context)
            throw error
        }
    }

    private func fail(_ client: String, _ context: RouteContext) {
        do {
            if let wait = try throttle.recordFailure(client: client) {
                logger.warning("authentication failures throttled", [("client", client), ("wait_seconds", String(wait)), ("request_id", context.requestID)])
            }
        } catch {
            logger.error("authentication failure not counted", [("error", String(describing: error))])
        }
    }
}
