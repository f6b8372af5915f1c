import HTTPMessages
import Telemetry

/// `GET /metrics` in Prometheus' text format. In production its group asks for a key of scope `metrics`:
/// per-route and per-country counts are not for anyone who can reach the port.
struct MetricsRoutes: RouteCollection {
    let metrics: MetricsRegistry

    func register(in router: inout Router) {
        let metrics = self.metrics
        router.add("GET", "/metrics") { _, _ in
            return HTTPResponse(status: 200, headers: ["Content-Type": MetricsRegistry.contentType], body: Array(metrics.render().utf8))
        }
    }
}
