import API
import VerifyCore
import Telemetry

/// The Twilio Verify v2-compatible API (docs/TWILIO_COMPAT.md) as one route group: the `/v2`
/// routes and the middleware that gives their refusals Twilio's shape. The application adds it only
/// when Twilio credentials are configured, so without them `/v2` is an ordinary unknown path.
public struct TwilioCompatFeature: Sendable {
    let dependencies: TwilioCompatDependencies
    let logger: Logger
    /// Slows down guessed credentials (401s) per client address, as the native API's keys are.
    let throttle: AuthThrottle?

    public init(_ dependencies: TwilioCompatDependencies, logger: Logger, throttle: AuthThrottle? = nil) {
        self.dependencies = dependencies
        self.logger = logger
        self.throttle = throttle
    }

    /// The group for ``APIDependencies/groups``. The throttle runs inside Twilio's error shape, so
    /// its 429 reads as Twilio's (20429, with `Retry-After`).
    public var group: RouteGroup {
        let guarded = throttle.map {
            [
                AuthThrottleMiddleware(
                    $0, logger: logger, counting: .basicCredentials,
                    partition: { TwilioCompatCredentials.claimedUser($0.headers["Authorization"]) })
            ]
        } ?? []
        return RouteGroup(
            "/v2", middleware: [TwilioCompatMiddleware()] + guarded,
            routes: [TwilioCompatRoutes(dependencies: dependencies, logger: logger)])
    }
}
