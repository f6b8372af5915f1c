import HTTPMessages
import VerifyCore

/// `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers, structured
/// field syntax): `RateLimit-Policy: "phone_send_1h";q=5;w=3600` and
/// `RateLimit: "phone_send_1h";r=2;t=1800`.
enum RateLimitHeaders {
    static func apply(_ report: RateLimitReport?, to headers: inout HTTPHeaders) {
        guard let report else { return }
        let name = "\"" + report.policy + "\""
        headers.set("RateLimit-Policy", "\(name);q=\(report.status.rule.quota);w=\(report.status.rule.window)")
        headers.set("RateLimit", "\(name);r=\(report.status.remaining);t=\(report.status.resetSeconds)")
    }
}
