import Telemetry
import VerifyCore

/// What the API needs, passed in by the application: what every request passes through (request
/// ids, the access log, metrics, the client's address) and the route groups it chose to include.
public struct APIDependencies: Sendable {
    public var random: any RandomSource
    public var logger: Logger
    public var clientIP: ClientIPResolver
    /// Metrics registry; the chain counts requests when set (`/metrics` is its own group).
    public var metrics: MetricsRegistry?
    /// The API's parts in the order the router tries them: the core groups (``RouteGroup``'s
    /// `verifications`, `fraudAdmin`, …) and the features' (`/v2`, the dev inbox, the console).
    public var groups: [RouteGroup]

    public init(
        random: any RandomSource, logger: Logger, clientIP: ClientIPResolver = ClientIPResolver(), metrics: MetricsRegistry? = nil,
        groups: [RouteGroup]
    ) {
        self.random = random
        self.logger = logger
        self.clientIP = clientIP
        self.metrics = metrics
        self.groups = groups
    }
}
