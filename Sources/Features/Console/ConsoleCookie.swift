import Foundation
import API
import HTTPMessages

/// The console's cookie on the wire. `HttpOnly` (no script reads it), `SameSite=Strict` (no other
/// site's page sends it), `Path=/` (the admin JSON routes need it too). `Secure` with the
/// `__Host-` prefix (no sibling domain can plant one) — except for a browser on the server's own
/// loopback address with no proxy in between (`http://127.0.0.1:8080` in development), where a
/// `Secure` cookie would never come back: there it is `pv_console`, without `Secure`. With
/// `forceSecure` (`PHONE_VERIFY_CONSOLE_SECURE_COOKIE`: a TLS terminator on the same host that
/// adds no proxy headers) it is always `Secure` and `__Host-`.
enum ConsoleCookie {
    static let secureName = "__Host-pv_console"
    static let loopbackName = "pv_console"
    static let loopback = ["127.0.0.0/8", "::1/128", "::ffff:127.0.0.0/104"].compactMap(CIDR.init)

    /// Whether `request` came straight from a loopback address (no proxy headers): the one case
    /// the cookie goes without `Secure`.
    static func isPlainLoopback(_ request: HTTPRequest) -> Bool {
        let proxied = ["Forwarded", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host"].contains { request.headers[$0] != nil }
        return !proxied && loopback.contains { $0.contains(request.remoteAddress) }
    }

    static func name(for request: HTTPRequest, forceSecure: Bool) -> String {
        forceSecure || !isPlainLoopback(request) ? secureName : loopbackName
    }

    /// Every value of cookie `name` in the request's `Cookie` headers.
    static func values(named name: String, in request: HTTPRequest) -> [String] {
        var found: [String] = []
        for header in request.headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let item = pair.trimmingCharacters(in: .whitespaces)
                guard let equals = item.firstIndex(of: "="), item[..<equals] == name else { continue }
                found.append(String(item[item.index(after: equals)...]))
            }
        }
        return found
    }

    /// `Set-Cookie` for `value`; `maxAge` 0 deletes it.
    static func header(_ value: String, for request: HTTPRequest, maxAge: Int, forceSecure: Bool) -> String {
        let secure = forceSecure || !isPlainLoopback(request)
        return "\(secure ? secureName : loopbackName)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict"
            + (secure ? "; Secure" : "")
    }

    /// Whether the request's `Origin` (when it sends one) is this server as the browser reached
    /// it: its `Host`, or the `X-Forwarded-Host` a proxy that rewrites `Host` sets (a page of
    /// another site can set neither on a browser's request). `Origin: null` (sandboxed frames,
    /// some redirects) never is.
    static func sameOrigin(_ request: HTTPRequest) -> Bool {
        guard let origin = request.headers["Origin"]?.lowercased() else { return true }
        let forwarded = request.headers["X-Forwarded-Host"]?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
        return [request.headers["Host"], forwarded].contains { host in
            guard let host = host?.lowercased(), !host.isEmpty else { return false }
            return origin == "https://" + host || origin == "http://" + host
        }
    }
}
