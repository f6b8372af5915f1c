import App
import Foundation
import Testing
import VerifyCore

@Suite struct LiveMetricsTests {
    /// After a flow and a refusal, /metrics has the promised series with bounded labels only.
    @Test func metricsAfterAFlow() throws {
        let server = try LiveServer(environment: ["PHONE_VERIFY_LIMITS": "phone_send=1/1h"])
        defer { server.stop() }
        let phone = "+447400123456"
        let id = try #require(try server.call("POST", "/v1/verifications", json: #"{"phone_number":"\#(phone)"}"#).json["id"]?.stringValue)
        let code = try server.code(for: id, phone: phone)
        #expect(try server.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#).status == 200)
        #expect(try server.call("POST", "/v1/verifications", json: #"{"phone_number":"\#(phone)"}"#).status == 429)

        // A sent message's outcome is written with others that arrive within 10 ms: the outbox
        // gauge reaches 0 a moment after the code was read.
        var text = ""
        let deadline = Date().addingTimeInterval(5)
        repeat {
            text = try String(contentsOf: URL(string: server.base + "/metrics")!, encoding: .utf8)
            if text.contains("phoneverify_outbox_depth 0") { break }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        for series in [
            #"phoneverify_http_requests_total{route="/v1/verifications/{id}/check",method="POST",status="200"} 1"#,
            #"phoneverify_verifications_total{event="started",country="GB",purpose="sign_in"} 1"#,
            #"phoneverify_verifications_total{event="approved",country="GB",purpose="any"} 1"#,
            #"phoneverify_checks_total{outcome="approved"} 1"#,
            #"phoneverify_sms_sends_total{gateway="console",outcome="sent"} 1"#,
            #"phoneverify_refusals_total{code="rate_limited",scope="phone"} 1"#,
            "phoneverify_outbox_depth 0",
            #"phoneverify_gateway_circuit_state{gateway="console",channel="sms"} 0"#,
            "# TYPE phoneverify_http_request_duration_seconds histogram",
            "# TYPE phoneverify_gateway_request_duration_seconds histogram",
            "phoneverify_build_info{",
        ] {
            #expect(text.contains(series), "missing: \(series)")
        }
        #expect(!text.contains("7400123456"))
        #expect(!text.contains(id))
    }
}
