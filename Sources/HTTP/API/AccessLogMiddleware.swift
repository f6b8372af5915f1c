import Dispatch
import HTTPMessages
import Telemetry

/// One `request` line per request at level info: id, method, route template (never the raw path,
/// which can carry ids and phone numbers), status, latency and client IP.
struct AccessLogMiddleware: Middleware {
    let logger: Logger

    func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        let started = DispatchTime.now().uptimeNanoseconds
        let response = try next(request, &context)
        if logger.isEnabled(.info) {
            let micros = (DispatchTime.now().uptimeNanoseconds - started) / 1000
            logger.info("request", [
                ("request_id", context.requestID), ("method", request.method),
                ("route", context.route.isEmpty ? "unmatched" : context.route), ("status", String(response.status)),
                ("latency_ms", String(Double(micros) / 1000)), ("client_ip", context.clientIP),
            ])
        }
        return response
    }
}
