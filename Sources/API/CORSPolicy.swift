import HTTPTypes

/// Cross-origin access for web apps that call the client endpoints straight from the browser
/// (SPEC: client apps request and confirm codes "directly or through their backend").
///
/// Only the endpoints a browser client uses are opened: verifications (start, resend, check, read,
/// cancel) and MFA. Admin, introspection, vendor callbacks, metrics and `/v2` (server-to-server)
/// never answer cross-origin. No cookies are involved, so credentials are never allowed.
public struct CORSPolicy: Sendable, Equatable {
    /// Exact origins ("https://app.example.com"), or ["*"] for any.
    public let origins: Set<String>

    public init(origins: Set<String>) {
        self.origins = origins
    }

    /// An origin as browsers send it: scheme, host, optional port; nothing else.
    public static func isOrigin(_ text: String) -> Bool {
        guard text.hasPrefix("https://") || text.hasPrefix("http://") else { return false }
        let rest = text.drop { $0 != "/" }.dropFirst(2)
        return !rest.isEmpty && !rest.contains("/") && rest.allSatisfy { $0.isASCII && !$0.isWhitespace && $0 != "?" && $0 != "#" }
    }

    static let methods = "GET, POST, DELETE"
    static let requestHeaders = "Authorization, Content-Type, Idempotency-Key, X-Request-Id"
    static let exposedHeaders = "Retry-After, RateLimit, RateLimit-Policy, X-Request-Id, Idempotent-Replayed, WWW-Authenticate"

    static func covers(_ path: String) -> Bool {
        path == "/v1/verifications" || path.hasPrefix("/v1/verifications/") || path.hasPrefix("/v1/mfa/")
    }

    /// The value of `Access-Control-Allow-Origin` for this request, if it gets one.
    func allowedOrigin(_ request: HTTPRequest) -> String? {
        guard Self.covers(request.path), let origin = request.headers["Origin"] else { return nil }
        if origins.contains("*") { return "*" }
        return origins.contains(origin) ? origin : nil
    }

    /// The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`), or nil when
    /// this is not one this policy answers (the router's 405 then stands).
    func preflight(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "OPTIONS", request.headers["Access-Control-Request-Method"] != nil,
            let origin = allowedOrigin(request)
        else { return nil }
        var headers: HTTPHeaders = [
            "Access-Control-Allow-Origin": origin, "Access-Control-Allow-Methods": Self.methods,
            "Access-Control-Allow-Headers": Self.requestHeaders, "Access-Control-Max-Age": "600",
        ]
        if origin != "*" { headers.set("Vary", "Origin") }
        return HTTPResponse(status: 204, headers: headers)
    }

    /// Adds the cross-origin fields to an answer for an allowed origin.
    func decorate(_ response: inout HTTPResponse, for request: HTTPRequest) {
        guard let origin = allowedOrigin(request) else { return }
        response.headers.set("Access-Control-Allow-Origin", origin)
        response.headers.set("Access-Control-Expose-Headers", Self.exposedHeaders)
        if origin != "*" { response.headers.set("Vary", "Origin") }
    }
}
