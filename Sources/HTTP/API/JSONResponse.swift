import HTTPMessages
import VerifyCore

/// Builders for the API's JSON responses.
public enum JSONResponse {
    public static let contentType = "application/json; charset=utf-8"

    public static func make(_ status: Int, _ body: JSONValue, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers.set("Content-Type", contentType)
        return HTTPResponse(status: status, headers: headers, body: body.encoded())
    }

    static let noCredentialsReason = "no_credentials"

    /// 401 for a request that sent no credentials at all (its `WWW-Authenticate` names no error).
    static func noCredentials(_ message: String) -> VerifyError {
        var error = VerifyError(.unauthenticated, message)
        error.reasons = [noCredentialsReason]
        return error
    }

    /// `{"error": {"code", "message", "details"}}` with the code's status; 429s get Retry-After.
    public static func error(_ error: VerifyError, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        if let retryAfter = error.retryAfter { headers.set("Retry-After", String(max(1, retryAfter))) }
        RateLimitHeaders.apply(error.rateLimit, to: &headers)
        if error.code == .unauthenticated && !headers.contains("WWW-Authenticate") {
            // RFC 6750 §3.1: a request that sent no credentials gets no error code.
            headers.set("WWW-Authenticate", error.reasons.contains(Self.noCredentialsReason) ? "Bearer" : "Bearer error=\"invalid_token\"")
        }
        if error.code == .forbidden, case .array(let scopes)? = error.details["required_scopes"] {
            // RFC 6750 §3.1: a valid key without the scope the route needs.
            let names = scopes.compactMap(\.stringValue).joined(separator: " ")
            headers.set("WWW-Authenticate", "Bearer error=\"insufficient_scope\", scope=\"\(names)\"")
        }
        if error.code == .stepUpRequired {
            // RFC 9470: tell the client what to get.
            let maxAge = error.details["max_age"]?.intValue.map { ", max_age=\($0)" } ?? ""
            headers.set(
                "WWW-Authenticate",
                "Bearer error=\"insufficient_user_authentication\", error_description=\"A recent step-up authentication is required\", acr_values=\"aal2\"\(maxAge)")
        }
        // `details` is always there (the one error shape of docs/ERRORS.md), empty when there is nothing to add.
        let members: [JSONMember] = [
            JSONMember("code", .string(error.code.rawValue)), JSONMember("message", .string(error.message)),
            JSONMember("details", .object(error.details.keys.sorted().map { JSONMember($0, error.details[$0]!) })),
        ]
        return make(error.code.httpStatus, ["error": .object(members)], headers: headers)
    }
}
