import Foundation
import API
import HTTPMessages
import Telemetry
import VerifyCore

/// Around the console's pages and the admin JSON routes:
/// - every `/console` answer gets the strict Content-Security-Policy, `Cache-Control: no-store`,
///   `X-Frame-Options: DENY`, `nosniff` and `Referrer-Policy: same-origin`;
/// - a request carrying a valid session gets its cookie renewed (the idle timeout restarts);
/// - every state-changing admin request (`/v1/admin/…`, by session or bearer key) is audited in
///   the log with the key's public id, the route template (never a phone number) and the outcome.
struct ConsoleMiddleware: Middleware {
    let sessions: ConsoleSessions
    let crypto: any ConsoleCrypto
    let logger: Logger

    /// Whether `path`'s first segment is `console`, or its first two are `v1` and `admin`
    /// (empty segments skipped, as a split omitting them would), read byte by byte.
    static func scope(of path: String) -> (console: Bool, admin: Bool) {
        let bytes = path.utf8
        var index = bytes.startIndex
        func segment() -> Substring.UTF8View? {
            while index < bytes.endIndex, bytes[index] == UInt8(ascii: "/") { index = bytes.index(after: index) }
            guard index < bytes.endIndex else { return nil }
            let start = index
            while index < bytes.endIndex, bytes[index] != UInt8(ascii: "/") { index = bytes.index(after: index) }
            return bytes[start..<index]
        }
        guard let first = segment() else { return (false, false) }
        if first.elementsEqual("console".utf8) { return (true, false) }
        guard first.elementsEqual("v1".utf8), let second = segment() else { return (false, false) }
        return (false, second.elementsEqual("admin".utf8))
    }

    func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
        // Every request passes here: the path's first segments are compared in place (no split,
        // no allocation, no Foundation search) before anything else is done.
        let (console, admin) = Self.scope(of: request.path)
        guard console || admin else { return try next(request, &context) }

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
