import Telemetry
import VerifyCore

/// The API's own metrics: requests by route template and status, latency by route. Labels are
/// route templates, never raw paths. (Refusals are counted by the domain, whichever API asked.)
struct HTTPMetrics: Sendable {
    let requests: Counter
    let latency: Histogram

    init(_ registry: MetricsRegistry) {
        requests = registry.counter(
            "phoneverify_http_requests_total", "HTTP requests by route template, method and status", labels: ["route", "method", "status"])
        latency = registry.histogram(
            "phoneverify_http_request_duration_seconds", "HTTP request latency by route template", labels: ["route"])
    }

    func observe(route: String, method: String, status: Int, seconds: Double) {
        let method = ["GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS"].contains(method) ? method : "OTHER"
        requests.increment([route, method, String(status)])
        latency.observe(seconds, [route])
    }
}
