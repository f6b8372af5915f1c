import API
import Foundation
import HTTPMessages
import Testing
import VerifyCore

/// The console's sign-in and session cookie: who gets in, the cookie's flags, forgery, the idle
/// timeout and a key removed from the configuration.
@Suite struct ConsoleSessionTests {
    static let admin = "admin-key-console-0123456789"
    static let metricsOnly = "metrics-key-console-0123456"
    static let keys = APIKeyring(admin: [admin], scoped: [(scopes: [.metrics], key: metricsOnly)])

    static func harness(idle: Int = 900, keys: APIKeyring = keys) -> APITestHarness {
        APITestHarness(apiKeys: keys, console: true, consoleIdleTimeout: idle)
    }

    /// Signs in and returns the `Cookie` header value.
    static func signIn(_ h: APITestHarness, key: String = admin, peer: String = "127.0.0.1") throws -> String {
        let reply = h.call("POST", "/console/session", form: "api_key=" + key, peer: peer)
        #expect(reply.status == 303)
        #expect(reply.headers["Location"] == "/console")
        let setCookie = try #require(reply.headers["Set-Cookie"])
        return String(setCookie.split(separator: ";")[0])
    }

    static func csrf(_ h: APITestHarness, cookie: String) throws -> String {
        let page = h.call("GET", "/console", headers: [("Cookie", cookie)])
        let html = try #require(page.json.stringValue)
        let marker = "name=\"csrf-token\" content=\""
        let start = try #require(html.range(of: marker)).upperBound
        return String(html[start...].prefix { $0 != "\"" })
    }

    @Test func wrongOrMissingKeysGetNoSessionAndNoContent() {
        let h = Self.harness()
        for form in ["api_key=not-a-configured-key-000", "api_key=", "other=1"] {
            let reply = h.call("POST", "/console/session", form: form)
            #expect(reply.status == 401)
            #expect(reply.headers["Set-Cookie"] == nil)
            #expect(reply.json.stringValue?.contains("This key was refused.") == true)
        }
        let scopeless = h.call("POST", "/console/session", form: "api_key=" + Self.metricsOnly)
        #expect(scopeless.status == 403 && scopeless.headers["Set-Cookie"] == nil)
        let page = h.call("GET", "/console")
        #expect(page.json.stringValue?.contains("name=\"api_key\"") == true)
        #expect(page.json.stringValue?.contains("csrf-token") == false)
        #expect(h.call("GET", "/v1/admin/numbers/+14155552671").status == 401)
    }

    @Test func theCookieIsHttpOnlyStrictAndSecureUnlessOnLoopback() throws {
        let h = Self.harness()
        let local = try #require(h.call("POST", "/console/session", form: "api_key=" + Self.admin).headers["Set-Cookie"])
        #expect(local.hasPrefix("pv_console=") && local.contains("HttpOnly") && local.contains("SameSite=Strict"))
        #expect(!local.contains("Secure") && local.contains("Max-Age=900") && !local.contains(Self.admin))
        let remote = try #require(h.call("POST", "/console/session", form: "api_key=" + Self.admin, peer: "203.0.113.9").headers["Set-Cookie"])
        #expect(remote.hasPrefix("__Host-pv_console=") && remote.contains("; Secure") && remote.contains("Path=/"))
        let proxied = h.call("POST", "/console/session", form: "api_key=" + Self.admin, headers: [("X-Forwarded-For", "198.51.100.1")])
        #expect(proxied.headers["Set-Cookie"]?.contains("; Secure") == true)
        let page = h.call("GET", "/console")
        #expect(page.headers["Cache-Control"] == "no-store" && page.headers["X-Frame-Options"] == "DENY")
        let csp = try #require(page.headers["Content-Security-Policy"])
        #expect(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"))
    }

    @Test func eachSignInGetsAFreshSessionWithItsOwnCSRFToken() throws {
        let h = Self.harness()
        let a = try Self.signIn(h), b = try Self.signIn(h)
        #expect(a != b)
        #expect(try Self.csrf(h, cookie: a) != Self.csrf(h, cookie: b))
    }

    @Test func aForgedOrAlteredCookieIsRefused() throws {
        let h = Self.harness()
        let cookie = try Self.signIn(h)
        #expect(h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)]).status == 200)
        // Push last use into the future, keep the MAC: refused.
        var parts = cookie.split(separator: ".").map(String.init)
        parts[4] = String(Int(parts[4])! + 100_000)
        for forged in [parts.joined(separator: "."), cookie + "x", "pv_console=v1.junk", cookie.replacingOccurrences(of: "v1.", with: "v2.")] {
            #expect(h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", forged)]).status == 401)
            let page = h.call("GET", "/console", headers: [("Cookie", forged)])
            #expect(page.status == 401 && page.json.stringValue?.contains("Sign in again") == true)
        }
        // Two session cookies at once (one planted): neither is trusted.
        #expect(h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie + "; " + cookie)]).status == 401)
    }

    @Test func theSessionEndsAfterTheIdleTimeoutAndEachUseRenewsIt() throws {
        let h = Self.harness(idle: 60)
        let cookie = try Self.signIn(h)
        h.t.clock.advance(50)
        let used = h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)])
        #expect(used.status == 200)
        let renewed = String(try #require(used.headers["Set-Cookie"]).split(separator: ";")[0])
        h.t.clock.advance(50)
        #expect(h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)]).status == 401)
        #expect(h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", renewed)]).status == 200)
        h.t.clock.advance(61)
        let expired = h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", renewed)])
        #expect(expired.status == 401 && expired.errorCode == "unauthenticated")
    }

    @Test func removingTheKeyFromTheConfigurationEndsItsSessions() throws {
        let cookie = try Self.signIn(Self.harness())
        let other = Self.harness(keys: APIKeyring(admin: ["another-admin-key-0123456789"]))
        #expect(other.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)]).status == 401)
    }

    @Test func signOutNeedsTheTokenAndClearsTheCookie() throws {
        let h = Self.harness()
        let cookie = try Self.signIn(h)
        let token = try Self.csrf(h, cookie: cookie)
        #expect(h.call("POST", "/console/signout", form: "csrf_token=wrong", headers: [("Cookie", cookie)]).status == 403)
        let out = h.call("POST", "/console/signout", form: "csrf_token=" + token, headers: [("Cookie", cookie)])
        #expect(out.status == 303 && out.headers["Set-Cookie"]?.contains("Max-Age=0") == true)
    }

    /// Sign-out is stored: the old cookie, replayed, opens nothing (on any replica: the store
    /// contract test `SessionRevocationTests` holds every store to it).
    @Test func aSignedOutCookieNoLongerWorks() throws {
        let h = Self.harness()
        let cookie = try Self.signIn(h)
        let other = try Self.signIn(h)
        let token = try Self.csrf(h, cookie: cookie)
        #expect(h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)]).status != 401)
        #expect(h.call("POST", "/console/signout", form: "csrf_token=" + token, headers: [("Cookie", cookie)]).status == 303)
        #expect(h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)]).status == 401)
        let page = h.call("GET", "/console", headers: [("Cookie", cookie)])
        #expect(page.status == 401 && page.json.stringValue?.contains("csrf-token") == false)
        #expect(h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", other)]).status != 401)
    }

    /// Behind a TLS terminator on the same host that adds no proxy headers, the peer is loopback:
    /// the setting still makes the cookie `Secure` with the `__Host-` name, and reads it back.
    @Test func theSecureCookieSettingForcesSecureOnLoopback() throws {
        let h = APITestHarness(apiKeys: Self.keys, console: true, consoleSecureCookie: true)
        let set = try #require(h.call("POST", "/console/session", form: "api_key=" + Self.admin).headers["Set-Cookie"])
        #expect(set.hasPrefix("__Host-pv_console=") && set.contains("; Secure"))
        let cookie = String(set.split(separator: ";")[0])
        #expect(h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)]).status != 401)
        let plain = "pv_console=" + cookie.dropFirst("__Host-pv_console=".count)
        #expect(h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", plain)]).status == 401)
    }
}
