import HTTPMessages
import VerifyCore

/// `POST /v1/credentials/introspect` (RFC 7662) for the main auth server: form field `token` (a
/// JSON body `{"token": …}` is accepted too), authenticated with a key of scope `introspect` (the group's ``ScopeMiddleware``). An active
/// credential's answer is `{"active": true, …its claims}` and redeems it; anything else (invalid,
/// expired, redeemed before) is `{"active": false}` and nothing more (RFC 7662 §2.2).
struct IntrospectionRoutes: RouteCollection {
    static let path = "/v1/credentials/introspect"
    /// Longest body read for the token (credentials are under 1 KiB).
    static let maxTokenBytes = 8 * 1024

    let introspector: CredentialIntrospector

    func register(in router: inout Router) {
        let introspector = self.introspector
        router.add("POST", Self.path) { request, _ in
            let token = try Self.token(of: request)
            let headers: HTTPHeaders = ["Cache-Control": "no-store"]
            guard let credential = try introspector.introspect(token), case .object(let claims) = credential.claims else {
                return JSONResponse.make(200, ["active": false], headers: headers)
            }
            return JSONResponse.make(200, .object([JSONMember("active", true)] + claims.filter { $0.key != "active" }), headers: headers)
        }
    }

    /// The `token` parameter of a form or JSON body.
    static func token(of request: HTTPRequest) throws -> String {
        let missing = VerifyError(.invalidRequest, "token is required", details: ["field": "token"])
        let type = request.headers["Content-Type"]?.lowercased() ?? ""
        guard !request.body.isEmpty else { throw missing }
        let token: String
        if type.hasPrefix("application/json") {
            token = try RequestBody(request).string("token", maxLength: maxTokenBytes)
        } else if type.hasPrefix("application/x-www-form-urlencoded") {
            let values = FormBody.fields(request.body).filter { $0.0 == "token" }
            guard values.count <= 1 else {
                // RFC 6749 §3.1 (which RFC 7662 builds on): a parameter must not be sent twice.
                throw VerifyError(.invalidRequest, "token must be sent once", details: ["field": "token"])
            }
            guard let value = values.first?.1 else { throw missing }
            token = value
        } else {
            throw VerifyError(
                .unsupportedMediaType, "send the token as application/x-www-form-urlencoded (RFC 7662) or application/json",
                details: ["content_type": .optional(request.headers["Content-Type"])])
        }
        guard !token.isEmpty else { throw missing }
        guard token.utf8.count <= maxTokenBytes else {
            throw VerifyError(.invalidRequest, "token is too long", details: ["field": "token"])
        }
        return token
    }
}
