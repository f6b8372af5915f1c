import API
import Telemetry

/// The Twilio Verify v2-compatible API (docs/TWILIO_COMPAT.md) as one route group: the `/v2`
/// routes and the middleware that gives their refusals Twilio's shape. The application adds it only
/// when Twilio credentials are configured, so without them `/v2` is an ordinary unknown path.
public struct TwilioCompatFeature: Sendable {
    let dependencies: TwilioCompatDependencies
    let logger: Logger

    public init(_ dependencies: TwilioCompatDependencies, logger: Logger) {
        self.dependencies = dependencies
        self.logger = logger
    }

    /// The group for ``APIDependencies/groups``.
    public var group: RouteGroup {
        RouteGroup("/v2", middleware: [TwilioCompatMiddleware()], routes: [TwilioCompatRoutes(dependencies: dependencies, logger: logger)])
    }
}
