import API
import Telemetry

/// The Twilio Verify v2-compatible API (docs/TWILIO_COMPAT.md) as one feature: the `/v2` routes
/// and the middleware that gives their refusals Twilio's shape. The application adds it only
/// when Twilio credentials are configured, so without them `/v2` is an ordinary unknown path.
public struct TwilioCompatFeature: Sendable {
    let dependencies: TwilioCompatDependencies
    let logger: Logger

    public init(_ dependencies: TwilioCompatDependencies, logger: Logger) {
        self.dependencies = dependencies
        self.logger = logger
    }

    /// The routes and middleware for ``APIDependencies/features``.
    public var api: APIFeature {
        APIFeature(routes: [TwilioCompatRoutes(dependencies: dependencies, logger: logger)], middleware: [TwilioCompatMiddleware()])
    }
}
