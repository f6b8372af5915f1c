import Foundation
import API
import HTTPMessages
import Telemetry
import VerifyCore

/// The middleware of the console's two groups (``ConsoleFeature/groups(keys:throttle:)``):
/// - on `/console` (``Area/pages``) every answer gets the strict Content-Security-Policy,
///   `Cache-Control: no-store`, `X-Frame-Options: DENY`, `nosniff` and `Referrer-Policy: same-origin`;
/// - on `/v1/admin` (``Area/admin``, every admin route, the core API's too) every state-changing
///   request, by session or bearer key, is audited in the log with the key's public id, the route
///   template (never a phone number) and the outcome, and answers get `Cache-Control: no-store`;
/// - on both, a request carrying a valid session gets its cookie renewed (the idle timeout restarts).
struct ConsoleMiddleware: Middleware {
    /// Which of the console's groups this instance serves.
    enum Area: Sendable {
        case pages, admin
    }

    let area: Area
    let sessions: ConsoleSessions
    let crypto: any ConsoleCrypto
    let logger: Logger

    func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        let console = area == .pages, admin = area == .admin
        // The keyring's own rule: a request without a bearer key is judged by its session (and
        // audited as it), whatever other `Authorization` header it carries.
        let bearer = APIKeyring.bearer(request) != nil
        let signed: ConsoleSessions.Signed? = bearer ? nil : { if case .valid(let s) = sessions.lookup(request) { s } else { nil } }()
        let mutating = !["GET", "HEAD", "OPTIONS"].contains(request.method)
        var response: HTTPResponse
        do {
            response = try next(request, &context)
        } catch let error as VerifyError {
            if admin && mutating { audit(request, context, signed, outcome: error.code.rawValue) }
            throw error
        } catch {
            if admin && mutating { audit(request, context, signed, outcome: "error") }
            throw error
        }
        if admin && mutating { audit(request, context, signed, outcome: String(response.status)) }
        if let signed, response.status < 400, !response.headers.contains("Set-Cookie"), request.path != "/console/signout" {
            response.headers.add(
                "Set-Cookie", sessions.cookieHeader(sessions.cookieValue(sessions.renewed(signed)), for: request, maxAge: sessions.idleTimeout))
        }
        response.headers.set("Cache-Control", "no-store")
        if console {
            response.headers.set("Content-Security-Policy", ConsolePage.contentSecurityPolicy)
            response.headers.set("X-Frame-Options", "DENY")
            response.headers.set("X-Content-Type-Options", "nosniff")
            // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on form posts.
            response.headers.set("Referrer-Policy", "same-origin")
            response.headers.set("Cross-Origin-Opener-Policy", "same-origin")
            response.headers.set("Cross-Origin-Resource-Policy", "same-origin")
        }
        return response
    }

    func audit(_ request: HTTPRequest, _ context: RouteContext, _ signed: ConsoleSessions.Signed?, outcome: String) {
        var keyID = signed?.keyID ?? "-"
        var via = signed == nil ? "api_key" : "console"
        if signed == nil, let key = APIKeyring.bearer(request) {
            if sessions.keyring.scopes(of: key) != nil { keyID = crypto.keyID(Array(key.utf8)) } else { via = "unknown_key" }
        }
        logger.info(
            "admin action",
            [("key_id", keyID), ("via", via), ("method", request.method), ("route", context.route.isEmpty ? "-" : context.route),
             ("outcome", outcome), ("request_id", context.requestID)])
    }
}
