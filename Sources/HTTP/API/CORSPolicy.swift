import HTTPMessages

/// Cross-origin access for web apps that call the client endpoints straight from the browser
/// (docs/API.md: client apps request and confirm codes directly or through their backend).
///
/// Only the endpoints a browser client uses are opened: verifications (start, resend, check, read,
/// cancel), MFA, and App Attest's nonces and attestations (apps built on a web view call them
/// through their own fetch, which a browser engine checks like any page). Admin, introspection, vendor callbacks, metrics and `/v2` (server-to-server)
/// never answer cross-origin. No cookies are involved, so credentials are never allowed.
public struct CORSPolicy: Sendable, Equatable {
    /// Exact origins ("https://app.example.com"), or ["*"] for any.
    public let origins: Set<String>

    public init(origins: Set<String>) {
        self.origins = origins
    }

    /// An origin exactly as browsers send it (RFC 6454 serialisation): scheme, lowercase host,
    /// a port only when not the scheme's default; no path, user info, query or fragment. Anything
    /// else would silently never match.
    public static func isOrigin(_ text: String) -> Bool {
        let scheme: String
        if text.hasPrefix("https://") { scheme = "https" } else if text.hasPrefix("http://") { scheme = "http" } else { return false }
        let authority = text.dropFirst(scheme.count + 3)
        guard !authority.isEmpty, authority.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || "-.:[]".contains($0)) })
        else { return false }
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            let port = authority[authority.index(after: colon)...]
            guard let number = Int(port), (1...65535).contains(number), "\(number)" == port,
                number != (scheme == "https" ? 443 : 80)
            else { return false }
        }
        return true
    }

    static let methods = "GET, POST, DELETE"
    static let requestHeaders = "Authorization, Content-Type, Idempotency-Key, X-Request-Id"
    static let exposedHeaders = "Retry-After, RateLimit, RateLimit-Policy, X-Request-Id, Idempotent-Replayed, WWW-Authenticate"

    static func covers(_ path: String) -> Bool {
        path == "/v1/verifications" || path.hasPrefix("/v1/verifications/") || path.hasPrefix("/v1/mfa/") || path.hasPrefix("/v1/app-attest/")
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

    /// Adds the cross-origin fields to an answer for an allowed origin. With a list of origins the
    /// answer depends on `Origin`, so caches are told (`Vary`) even when it carries none.
    func decorate(_ response: inout HTTPResponse, for request: HTTPRequest) {
        if !origins.contains("*"), Self.covers(request.path) { response.headers.set("Vary", "Origin") }
        guard let origin = allowedOrigin(request) else { return }
        response.headers.set("Access-Control-Allow-Origin", origin)
        response.headers.set("Access-Control-Expose-Headers", Self.exposedHeaders)
        if origin != "*" { response.headers.set("Vary", "Origin") }
    }
}
