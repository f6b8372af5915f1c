import HTTPMessages
import Telemetry

/// `GET /metrics` in Prometheus' text format. In production it needs a key of scope `metrics`:
/// per-route and per-country counts are not for anyone who can reach the port.
struct MetricsRoutes: RouteGroup {
    let metrics: MetricsRegistry
    let keys: APIKeyring
    let needsKey: Bool

    func register(in router: inout Router) {
        let metrics = self.metrics, keys = self.keys, needsKey = self.needsKey
        router.add("GET", "/metrics") { request, _ in
            if needsKey { try keys.require(request, .metrics) }
            return HTTPResponse(status: 200, headers: ["Content-Type": MetricsRegistry.contentType], body: Array(metrics.render().utf8))
        }
    }
}
