import App
import Foundation
import Testing
import VerifyCore

@Suite(.serialized) struct LiveAbuseTests {
    func parallel(_ count: Int, _ body: @escaping @Sendable (Int) -> Int) -> [Int] {
        let lock = NSLock()
        nonisolated(unsafe) var statuses: [Int] = []
        DispatchQueue.concurrentPerform(iterations: count) { i in
            let status = body(i)
            lock.lock()
            statuses.append(status)
            lock.unlock()
        }
        return statuses
    }

    /// 100 parallel starts for one number against its limit of 5: exactly 5 pass.
    @Test func exactlyFiveOfAHundredParallelStartsPass() throws {
        let server = try LiveServer(environment: ["PHONE_VERIFY_HTTP_THREADS": "16", "PHONE_VERIFY_LIMITS": "ip_send=off;prefix_send=off"])
        defer { server.stop() }
        let statuses = parallel(100) { _ in
            (try? server.call("POST", "/v1/verifications", json: #"{"phone_number":"+447400123456"}"#).status) ?? -1
        }
        #expect(statuses.filter { $0 == 201 }.count == 5)
        #expect(statuses.filter { $0 == 429 }.count == 95)
        // Exactly five messages went out.
        Thread.sleep(forTimeInterval: 0.3)
        #expect(server.console.filter { $0.hasPrefix("SMS to +44 7400 123456") }.count == 5)
    }

    @Test func perIPLimitWithHeadersAndTrustedProxy() throws {
        let server = try LiveServer(environment: [
            "PHONE_VERIFY_LIMITS": "ip_send=3/10m", "PHONE_VERIFY_TRUSTED_PROXIES": "127.0.0.1/32",
        ])
        defer { server.stop() }
        let numbers = ["+447400123456", "+4915123456789", "+33612345678", "+918123456789"]
        for (i, number) in numbers.prefix(3).enumerated() {
            let reply = try server.call("POST", "/v1/verifications", json: #"{"phone_number":"\#(number)"}"#, headers: ["X-Forwarded-For": "198.51.100.7"])
            #expect(reply.status == 201)
            #expect(reply.headers["ratelimit"] != nil)
            if i == 2 { #expect(reply.headers["ratelimit"] == #""ip_send_10m";r=0;t=600"#) }
        }
        let refused = try server.call("POST", "/v1/verifications", json: #"{"phone_number":"\#(numbers[3])"}"#, headers: ["X-Forwarded-For": "198.51.100.7"])
        #expect(refused.status == 429)
        #expect(refused.json["error"]?["details"]?["scope"] == "ip")
        #expect(refused.headers["retry-after"] == "600")
        #expect(refused.headers["ratelimit-policy"] == #""ip_send_10m";q=3;w=600"#)
        // Another client behind the same proxy is not affected.
        let other = try server.call("POST", "/v1/verifications", json: #"{"phone_number":"\#(numbers[3])"}"#, headers: ["X-Forwarded-For": "198.51.100.8"])
        #expect(other.status == 201)
    }

    @Test func lockoutAfterFailedChecks() throws {
        let server = try LiveServer(environment: ["PHONE_VERIFY_LIMITS": "phone_failed_check=2/1d"])
        defer { server.stop() }
        let phone = "+61412345678"
        let id = try #require(try server.call("POST", "/v1/verifications", json: #"{"phone_number":"\#(phone)"}"#).json["id"]?.stringValue)
        let code = try server.code(for: id, phone: phone)
        let wrong = code == "000000" ? "111111" : "000000"
        for _ in 0..<3 { #expect(try server.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(wrong)"}"#).status == 422) }
        let locked = try server.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#)
        #expect(locked.status == 429)
        #expect(locked.json["error"]?["details"]?["scope"] == "phone_lockout")
        let start = try server.call("POST", "/v1/verifications", json: #"{"phone_number":"\#(phone)"}"#)
        #expect(start.status == 429)
        #expect(start.json["error"]?["details"]?["scope"] == "phone_lockout")
    }

    @Test(arguments: [
        ("+18002345678", 422, "unsupported_line_type"), ("+19002345678", 422, "unsupported_line_type"),
        ("+442070313000", 422, "unsupported_line_type"), ("+447012345678", 422, "unsupported_line_type"),
        ("+611300123456", 422, "unsupported_line_type"), ("+33912345678", 422, "unsupported_line_type"),
        ("+447400123456", 201, ""), ("+4915123456789", 201, ""), ("+16502530000", 201, ""), ("+2348021234567", 201, ""),
        ("+819012345678", 403, "region_not_allowed"),
    ])
    func lineTypesAndRegionsWithRealNumbers(number: String, status: Int, code: String) throws {
        let server = try LiveServer(environment: ["PHONE_VERIFY_REGION_DENY_LIST": "JP"])
        defer { server.stop() }
        let reply = try server.call("POST", "/v1/verifications", json: #"{"phone_number":"\#(number)"}"#)
        #expect(reply.status == status)
        if !code.isEmpty { #expect(reply.errorCode == code) }
    }

    @Test func allowListRefusesEverythingElse() throws {
        let server = try LiveServer(environment: ["PHONE_VERIFY_REGION_ALLOW_LIST": "de,fr"])
        defer { server.stop() }
        #expect(try server.call("POST", "/v1/verifications", json: #"{"phone_number":"+33612345678"}"#).status == 201)
        let refused = try server.call("POST", "/v1/verifications", json: #"{"phone_number":"+447400123456"}"#)
        #expect(refused.status == 403)
        #expect(refused.json["error"]?["details"]?["region"] == "GB")
    }

    @Test func testNumbersWorkWithoutSMS() throws {
        let server = try LiveServer(environment: [
            "PHONE_VERIFY_TEST_NUMBERS": "+15555550100:424242", "PHONE_VERIFY_LIMITS": "phone_send=3/1h;ip_send=1/1h;global_send=1/1m",
        ])
        defer { server.stop() }
        var last = ""
        for _ in 0..<3 {
            let reply = try server.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550100"}"#)
            #expect(reply.status == 201)
            last = reply.json["id"]?.stringValue ?? ""
        }
        // Each verification allows more guesses: the number's own quota holds (docs/ABUSE.md).
        #expect(try server.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550100"}"#).status == 429)
        let checked = try server.call("POST", "/v1/verifications/\(last)/check", json: #"{"code":"424242"}"#)
        #expect(checked.status == 200)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(server.console.isEmpty)
        #expect(try server.call("GET", "/v1/verifications/\(last)").json["delivery"] == .null)
    }
}
