import Telemetry
import VerifyCore

/// The API's own metrics: requests by route template and status, latency by route, refusals by
/// code and scope. Labels are route templates, never raw paths.
struct HTTPMetrics: Sendable {
    let requests: Counter
    let latency: Histogram
    let refusals: Counter

    init(_ registry: MetricsRegistry) {
        requests = registry.counter(
            "phoneverify_http_requests_total", "HTTP requests by route template, method and status", labels: ["route", "method", "status"])
        latency = registry.histogram(
            "phoneverify_http_request_duration_seconds", "HTTP request latency by route template", labels: ["route"])
        refusals = registry.counter(
            "phoneverify_refusals_total", "Requests refused by rate limits and the fraud guard, by error code and scope",
            labels: ["code", "scope"])
    }

    func observe(route: String, method: String, status: Int, seconds: Double, error: VerifyError?) {
        let method = ["GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS"].contains(method) ? method : "OTHER"
        requests.increment([route, method, String(status)])
        latency.observe(seconds, [route])
        if let error, error.code == .rateLimited || error.code == .suspectedFraud {
            refusals.increment([error.code.rawValue, error.details["scope"]?.stringValue ?? "unknown"])
        }
    }
}
