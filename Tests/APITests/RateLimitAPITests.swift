import API
import Foundation
import HTTPMessages
import Testing
import VerifyCore
import VerifyTesting

@Suite struct RateLimitAPITests {
    @Test func allowedResponsesCarryTheClosestLimitAndRefusalsTheRefusingOne() throws {
        let h = APITestHarness()
        let first = h.start()
        #expect(first.headers["RateLimit-Policy"] == #""phone_send_1h";q=5;w=3600"#)
        #expect(first.headers["RateLimit"] == #""phone_send_1h";r=4;t=3600"#)
        for _ in 0..<4 { #expect(h.start().status == 201) }
        let refused = h.start()
        #expect(refused.status == 429)
        #expect(refused.errorCode == "rate_limited")
        #expect(refused.json["error"]?["details"]?["scope"] == "phone")
        #expect(refused.headers["Retry-After"] == "3600")
        #expect(refused.headers["RateLimit"] == #""phone_send_1h";r=0;t=3600"#)
        #expect(refused.headers["RateLimit-Policy"] == #""phone_send_1h";q=5;w=3600"#)
    }

    @Test func spoofedForwardedForFromAnUntrustedPeerChangesNothing() throws {
        let h = APITestHarness(protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: "ip_send=2/10m")))
        for n in 0..<2 {
            #expect(h.call("POST", "/v1/verifications", json: #"{"phone_number":"+1555555010\#(n)"}"#, headers: [("X-Forwarded-For", "9.9.9.\(n)")]).status == 201)
        }
        let refused = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550109"}"#, headers: [("X-Forwarded-For", "9.9.9.9")])
        #expect(refused.status == 429)
        #expect(refused.json["error"]?["details"]?["scope"] == "ip")
    }

    @Test func forwardedForFromATrustedProxyIdentifiesClients() throws {
        let h = APITestHarness(
            protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: "ip_send=1/10m")),
            trustedProxies: [CIDR("10.0.0.0/8")!])
        for n in 0..<3 {
            let reply = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+1555555010\#(n)"}"#,
                               headers: [("X-Forwarded-For", "203.0.113.\(n)")], peer: "10.1.1.1")
            #expect(reply.status == 201)
        }
        let again = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550109"}"#,
                           headers: [("X-Forwarded-For", "203.0.113.0")], peer: "10.1.1.1")
        #expect(again.status == 429)
    }

    @Test func ipv6ClientsAreCountedByTheirSlash64() {
        #expect(ClientIPResolver.limitKey("2001:db8:1:2:aaaa::1") == ClientIPResolver.limitKey("2001:db8:1:2:bbbb::2"))
        #expect(ClientIPResolver.limitKey("2001:db8:1:3::1") != ClientIPResolver.limitKey("2001:db8:1:2::1"))
        #expect(ClientIPResolver.limitKey("::ffff:192.0.2.1") == "192.0.2.1")
    }

    @Test func checkResponsesCarryTheCheckLimit() throws {
        let h = APITestHarness()
        let id = try #require(h.start().json["id"]?.stringValue)
        let ok = h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(try h.t.lastCode(for: id))"}"#)
        #expect(ok.headers["RateLimit"] == #""ip_check_10m";r=99;t=600"#)
    }

    @Test func adminFraudEndpointsNeedTheKey() throws {
        let h = APITestHarness(adminKey: "admin-key-0123456789")
        let anonymous = h.call("GET", "/v1/admin/fraud")
        #expect(anonymous.status == 401)
        #expect(anonymous.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
        #expect(h.call("GET", "/v1/admin/fraud", headers: [("Authorization", "Bearer wrong")]).status == 401)
        let auth = [("Authorization", "Bearer admin-key-0123456789")]
        let blocked = h.call("PUT", "/v1/admin/fraud/country:GB", json: #"{"action":"block"}"#, headers: auth)
        #expect(blocked.status == 200)
        let refused = h.start("+447700900123")
        #expect(refused.status == 429)
        #expect(refused.errorCode == "suspected_fraud")
        let list = h.call("GET", "/v1/admin/fraud", headers: auth).json["keys"]?.arrayValue ?? []
        #expect(list.contains { $0["key"] == "country:GB" && $0["override"] == "block" && $0["refused"] == true })
        #expect(h.call("DELETE", "/v1/admin/fraud/country:GB", headers: auth).status == 200)
        #expect(h.start("+447700900123").status == 201)
        #expect(h.call("PUT", "/v1/admin/fraud/bogus", json: #"{"action":"block"}"#, headers: auth).status == 400)
        #expect(h.call("PUT", "/v1/admin/fraud/country:GB", json: #"{"action":"maybe"}"#, headers: auth).status == 400)
    }

    /// docs/ABUSE.md: every 429 carries `RateLimit-Policy` and `RateLimit`, also the per-verification ones.
    @Test func every429CarriesRateLimitFields() throws {
        let h = APITestHarness(adminKey: "admin-key-0123456789")
        let id = try #require(h.start().json["id"]?.stringValue)
        let soon = h.call("POST", "/v1/verifications/\(id)/resend")
        #expect(soon.status == 429 && soon.errorCode == "resend_too_soon")
        #expect(soon.headers["RateLimit-Policy"] == #""resend_cooldown";q=1;w=30"#)
        #expect(soon.headers["RateLimit"] == #""resend_cooldown";r=0;t=30"#)

        for _ in 0..<5 { _ = h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"000000"}"#) }
        let locked = h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"000000"}"#)
        #expect(locked.status == 429 && locked.errorCode == "max_attempts_reached")
        #expect(locked.headers["RateLimit-Policy"] == #""verification_attempts";q=5;w=300"#)
        #expect(locked.headers["RateLimit"] == #""verification_attempts";r=0;t=300"#)

        var policy = VerificationPolicy()
        policy.resendCooldown = 0
        policy.maxSends = 2
        let sends = APITestHarness(policy: policy)
        let other = try #require(sends.start().json["id"]?.stringValue)
        #expect(sends.call("POST", "/v1/verifications/\(other)/resend").status == 200)
        let spent = sends.call("POST", "/v1/verifications/\(other)/resend")
        #expect(spent.status == 429 && spent.errorCode == "max_sends_reached")
        #expect(spent.headers["RateLimit-Policy"] == #""verification_sends";q=2;w=300"#)
        #expect(spent.headers["RateLimit"] == #""verification_sends";r=0;t=300"#)

        let auth = [("Authorization", "Bearer admin-key-0123456789")]
        #expect(h.call("PUT", "/v1/admin/fraud/country:GB", json: #"{"action":"block"}"#, headers: auth).status == 200)
        let paused = h.start("+447700900123")
        #expect(paused.status == 429 && paused.errorCode == "suspected_fraud")
        #expect(paused.headers["RateLimit-Policy"]?.hasPrefix(#""fraud_country";q=0;w="#) == true)
        #expect(paused.headers["RateLimit"]?.hasPrefix(#""fraud_country";r=0;t="#) == true)
    }
}

/// `/v1/admin/lockouts` over the in-process API (docs/ABUSE.md, "Failed checks").
@Suite struct LockoutAPITests {
    let h = APITestHarness(
        protection: AbuseProtection(limits: try! RateLimits.defaults.overridden(by: "phone_failed_check=1/1d")),
        trustedProxies: [CIDR("127.0.0.1/32")!], adminKey: "admin-key-0123456789")

    @Test func operatorsListAndLiftAStrangersLockout() throws {
        let stranger = [("X-Forwarded-For", "203.0.113.9")]
        let started = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550123"}"#, headers: stranger)
        let id = started.json["id"]?.stringValue ?? ""
        let wrong = try h.t.lastCode(for: id) == "000000" ? "111111" : "000000"
        for _ in 0..<2 { #expect(h.call("POST", "/v1/verifications/\(id)/check", json: "{\"code\":\"\(wrong)\"}", headers: stranger).status == 422) }
        let waiting = h.call("POST", "/v1/verifications/\(id)/check", json: "{\"code\":\"\(wrong)\"}", headers: stranger)
        #expect(waiting.status == 429 && waiting.headers["Retry-After"] == "30")
        #expect(waiting.json["error"]?["details"]?["scope"] == "phone_lockout")
        // The owner, elsewhere, is not refused.
        let owner = [("X-Forwarded-For", "198.51.100.7")]
        #expect(h.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550123"}"#, headers: owner).status == 201)

        let admin = [("Authorization", "Bearer admin-key-0123456789")]
        #expect(h.call("GET", "/v1/admin/lockouts").status == 401)
        let listed = h.call("GET", "/v1/admin/lockouts", headers: admin, query: ["phone_number": "+15555550123"])
        #expect(listed.status == 200)
        #expect(listed.json["lockouts"].map { if case .array(let a) = $0 { a.count } else { 0 } } == 1)
        let lockout = listed.json["lockouts"].flatMap { if case .array(let a) = $0 { a.first } else { nil } }
        #expect(lockout?["phone_number"] == "+15555550123" && lockout?["requester"] == "203.0.113.9" && lockout?["failures"] == 2)
        #expect(lockout?["locked_until"] == .string(RFC3339.format(h.t.clock.now().addingTimeInterval(30))))
        #expect(h.call("DELETE", "/v1/admin/lockouts/15555550123", headers: admin).errorCode == "invalid_phone_number")
        let cleared = h.call("DELETE", "/v1/admin/lockouts/%2B15555550123", headers: admin)
        #expect(cleared.json["phone_number"] == "+15555550123" && cleared.json["cleared"] == 1)
        #expect(h.call("POST", "/v1/verifications/\(id)/check", json: "{\"code\":\"\(try h.t.lastCode(for: id))\"}", headers: stranger).status == 200)
    }
}

/// `DELETE /v1/admin/limits/{phone}` (docs/ABUSE.md, "Operators lift locks"): strangers spent a
/// number's send quota; an operator with `lockouts` lifts it and the owner starts again.
@Suite struct LimitsAPITests {
    let h = APITestHarness(
        protection: AbuseProtection(limits: try! RateLimits.defaults.overridden(by: "phone_send=2/1h")),
        trustedProxies: [CIDR("127.0.0.1/32")!],
        apiKeys: APIKeyring(admin: ["admin-key-0123456789"], scoped: [([.read], "read-key-0123456789"), ([.lockouts], "lock-key-0123456789")]))

    @Test func anOperatorLiftsANumbersSendQuota() {
        let start = #"{"phone_number":"+15555550123"}"#
        for i in 0..<2 { #expect(h.call("POST", "/v1/verifications", json: start, headers: [("X-Forwarded-For", "203.0.113.\(i)")]).status == 201) }
        let owner = [("X-Forwarded-For", "198.51.100.7")]
        let refused = h.call("POST", "/v1/verifications", json: start, headers: owner)
        #expect(refused.status == 429 && refused.json["error"]?["details"]?["scope"] == "phone")

        #expect(h.call("DELETE", "/v1/admin/limits/%2B15555550123").status == 401)
        #expect(h.call("DELETE", "/v1/admin/limits/%2B15555550123", headers: [("Authorization", "Bearer read-key-0123456789")]).status == 403)
        let lock = [("Authorization", "Bearer lock-key-0123456789")]
        let bad = h.call("DELETE", "/v1/admin/limits/15555550123", headers: lock)
        #expect(bad.status == 400 && bad.errorCode == "invalid_phone_number")
        let cleared = h.call("DELETE", "/v1/admin/limits/%2B15555550123", headers: lock)
        #expect(cleared.status == 200 && cleared.json["phone_number"] == "+15555550123")
        #expect((cleared.json["cleared"]?.intValue ?? 0) >= 1)
        #expect(h.call("POST", "/v1/verifications", json: start, headers: owner).status == 201)
    }
}
