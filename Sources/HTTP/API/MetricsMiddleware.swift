import Dispatch
import HTTPMessages

/// Counts requests and their latency by route template (``HTTPMetrics``); in the chain only when
/// the application keeps a metrics registry.
struct MetricsMiddleware: Middleware {
    let metrics: HTTPMetrics

    func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        let started = DispatchTime.now().uptimeNanoseconds
        let response = try next(request, &context)
        let micros = (DispatchTime.now().uptimeNanoseconds - started) / 1000
        metrics.observe(
            route: context.route.isEmpty ? "unmatched" : context.route, method: request.method, status: response.status,
            seconds: Double(micros) / 1e6)
        return response
    }
}
