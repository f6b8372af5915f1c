import API
import Foundation
import HTTPMessages
import Testing
import VerifyCore

/// Failed console sign-ins and unknown bearer keys: a few free failures per client IP, then 429
/// with a truthful Retry-After; other addresses are never delayed.
@Suite struct AuthThrottleTests {
    static let admin = "admin-key-console-0123456789"

    @Test func consoleSignInBacksOffPerAddress() throws {
        let h = APITestHarness(apiKeys: APIKeyring(admin: [Self.admin]), console: true, authThrottle: true)
        for _ in 0..<6 { #expect(h.call("POST", "/console/session", form: "api_key=wrong-key-000000000000", peer: "203.0.113.9").status == 401) }
        let refused = h.call("POST", "/console/session", form: "api_key=" + Self.admin, peer: "203.0.113.9")
        #expect(refused.status == 429 && refused.errorCode == "rate_limited")
        #expect(refused.headers["Retry-After"] == "1")
        // The operator, elsewhere, is not locked out by the stranger's failures.
        #expect(h.call("POST", "/console/session", form: "api_key=" + Self.admin, peer: "198.51.100.7").status == 303)
        h.t.clock.advance(1)
        #expect(h.call("POST", "/console/session", form: "api_key=wrong-key-000000000000", peer: "203.0.113.9").status == 401)
        #expect(h.call("POST", "/console/session", form: "api_key=" + Self.admin, peer: "203.0.113.9").headers["Retry-After"] == "2")
    }

    @Test func unknownBearerKeysBackOffButMFATokensDoNotCount() throws {
        let h = APITestHarness(apiKeys: APIKeyring(admin: [Self.admin]), authThrottle: true)
        let bad = [("Authorization", "Bearer not-a-key-000000000000")]
        for _ in 0..<10 { _ = h.call("GET", "/v1/mfa/factors", headers: bad, peer: "203.0.113.9") }
        for _ in 0..<6 { #expect(h.call("GET", "/v1/admin/lockouts", headers: bad, query: ["phone_number": "+14155552671"], peer: "203.0.113.9").status == 401) }
        let refused = h.call("GET", "/v1/admin/lockouts", headers: [("Authorization", "Bearer " + Self.admin)], query: ["phone_number": "+14155552671"], peer: "203.0.113.9")
        #expect(refused.status == 429 && refused.headers["Retry-After"] == "1")
        #expect(h.call("GET", "/v1/admin/lockouts", headers: [("Authorization", "Bearer " + Self.admin)], query: ["phone_number": "+14155552671"], peer: "198.51.100.7").status == 200)
    }

    /// The throttle is the middleware of the groups that take keys, whose prefixes are read as the
    /// router reads paths: a guess sent to `//v1/admin/…` (routed like `/v1/admin/…`) counts too.
    @Test func guessesThroughAnUnusualSpellingOfThePathCount() throws {
        let h = APITestHarness(apiKeys: APIKeyring(admin: [Self.admin]), authThrottle: true)
        let bad = [("Authorization", "Bearer not-a-key-000000000000")]
        for path in Array(repeating: ["//v1/admin/fraud", "/v1//admin/fraud"], count: 3).joined() {
            #expect(h.call("GET", path, headers: bad, peer: "203.0.113.9").status == 401, "\(path)")
        }
        #expect(h.call("GET", "//v1/admin/fraud", headers: [("Authorization", "Bearer " + Self.admin)], peer: "203.0.113.9").status == 429)
    }
}
