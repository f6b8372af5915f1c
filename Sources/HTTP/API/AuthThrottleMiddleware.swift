import HTTPMessages
import Telemetry
import VerifyCore

/// Slows down key guessing (docs/OPERATIONS.md, "Sign-in throttle"): a console sign-in answered
/// 401, or a bearer key refused as unknown, counts as a failure of the client's IP. It is the
/// middleware of the groups that take keys (``RouteGroup/keyThrottle(_:logger:)``: `/v1/admin`,
/// `/v1/credentials/introspect`, `/metrics`), of the console's sign-in and of the
/// Twilio-compatible `/v2` (Basic credentials refused with 401), so it sees only their requests. Past the free failures, the client's next attempts get 429 `rate_limited` with a
/// truthful `Retry-After` until its wait is over — valid keys included, or the throttle would
/// still let guesses through. Other clients are never affected.
public struct AuthThrottleMiddleware: Middleware {
    /// What counts as an attempt in the group.
    public enum Attempt: Sendable {
        /// A request with a bearer key (MFA's bearer session tokens are not under these groups).
        case bearerKey
        /// A `POST` of the sign-in form.
        case signIn
        /// HTTP Basic credentials (the Twilio-compatible `/v2`: account SID and auth token). Its
        /// requests are the API's traffic, not an operator's: the store is read only for a client
        /// that failed on this replica lately (``RecentFailures``).
        case basicCredentials
    }

    let throttle: AuthThrottle
    let logger: Logger
    let attempt: Attempt
    /// Only for ``Attempt/basicCredentials``.
    let recent: RecentFailures?
    /// Counts failures per address and this part of the request (the user a Basic header claims),
    /// not per address alone; nil: per address.
    let partition: (@Sendable (HTTPRequest) -> String)?

    public init(
        _ throttle: AuthThrottle, logger: Logger, counting attempt: Attempt = .bearerKey,
        partition: (@Sendable (HTTPRequest) -> String)? = nil
    ) {
        self.throttle = throttle
        self.logger = logger
        self.attempt = attempt
        self.partition = partition
        self.recent = attempt == .basicCredentials
            ? RecentFailures(clock: throttle.clock, window: Double(throttle.policy.window)) : nil
    }

    func isAttempt(_ request: HTTPRequest) -> Bool {
        switch attempt {
        case .bearerKey: return APIKeyring.bearer(request) != nil
        case .signIn: return request.method == "POST"
        case .basicCredentials:
            guard let value = request.headers["Authorization"], value.utf8.count >= 6 else { return false }
            return value.prefix(6).lowercased() == "basic "
        }
    }

    public func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        guard isAttempt(request) else { return try next(request, &context) }
        let address = context.clientIP
        // The counted key (address, or address and partition): built only when it is read or
        // written, so a clean client of `/v2` pays no decoding of its credentials here.
        func key() -> String { partition.map { address + "|" + $0(request) } ?? address }
        if recent?.contains(address) != false, let wait = try throttle.wait(client: key()) {
            throw VerifyError(
                .rateLimited, "too many failed sign-ins or API keys from this address; try again in \(wait) s",
                details: ["scope": "auth"], retryAfter: wait)
        }
        do {
            let response = try next(request, &context)
            if response.status == 401 { fail(key(), address: address, context) }
            return response
        } catch let error as VerifyError where error.code == .unauthenticated {
            fail(key(), address: address, context)
            throw error
        }
    }

    private func fail(_ client: String, address: String, _ context: RouteContext) {
        recent?.insert(address)
        do {
            if let wait = try throttle.recordFailure(client: client) {
                logger.warning("authentication failures throttled", [("client", client), ("wait_seconds", String(wait)), ("request_id", context.requestID)])
            }
        } catch {
            logger.error("authentication failure not counted", [("error", String(describing: error))])
        }
    }
}
