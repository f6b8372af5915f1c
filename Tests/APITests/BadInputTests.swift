import API
import Foundation
import HTTPMessages
import Testing
import VerifyCore
import VerifyTesting

@Suite struct BadInputTests {
    let h = APITestHarness()

    @Test(arguments: [
        ("not json", "invalid_request"),
        ("[1,2]", "invalid_request"),
        ("{}", "invalid_request"),
        (#"{"phone_number": 15555550123}"#, "invalid_request"),
        (#"{"phone_number": ""}"#, "invalid_request"),
        (#"{"phone_number": "+15555550123", "channel": "voice"}"#, "invalid_request"),
        (#"{"phone_number": "4155552671", "default_region": "ß"}"#, "invalid_request"),  // "ß".uppercased() == "SS"
        (#"{"phone_number": "+15555550123", "default_region": "USA"}"#, "invalid_request"),
        (#"{"phone_number": "+15555550123", "locale": "en<script>"}"#, "invalid_request"),
        (#"{"phone_number": "+15555550123", "default_region": 7}"#, "invalid_request"),
    ])
    func malformedStartBodiesAre400AndChangeNothing(body: String, code: String) {
        let reply = h.call("POST", "/v1/verifications", json: body)
        #expect(reply.status == 400)
        #expect(reply.errorCode == code)
        #expect(reply.json["error"]?["message"]?.stringValue?.isEmpty == false)
        #expect(h.t.store.messages.isEmpty)
    }

    @Test func wrongContentTypeIs415() {
        let reply = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550123"}"#, headers: [("Content-Type", "text/plain")])
        #expect(reply.status == 415)
        #expect(reply.errorCode == "unsupported_media_type")
        let charset = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550123"}"#, headers: [("Content-Type", "Application/JSON; charset=utf-8")])
        #expect(charset.status == 201)
        #expect(h.t.store.messages.count == 1)
    }

    @Test func missingBodyIs400() {
        #expect(h.call("POST", "/v1/verifications").status == 400)
    }

    @Test func unknownRoutesAre404AndWrongMethods405() {
        let missing = h.call("GET", "/nope")
        #expect(missing.status == 404)
        #expect(missing.errorCode == "not_found")
        let wrong = h.call("PUT", "/v1/verifications")
        #expect(wrong.status == 405)
        #expect(wrong.errorCode == "method_not_allowed")
        #expect(wrong.headers["Allow"] == "POST")
        #expect(h.call("PATCH", "/v1/verifications/ver_x").headers["Allow"] == "GET, DELETE")
    }

    @Test func checkBodyValidation() throws {
        let id = try #require(h.start().json["id"]?.stringValue)
        #expect(h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":123456}"#).status == 400)
        #expect(h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"12"}"#).status == 400)
        #expect(h.call("GET", "/v1/verifications/\(id)").json["attempts_remaining"] == 5)
    }

    @Test func badIdempotencyKeyIs400() {
        let reply = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550123"}"#, headers: [("Idempotency-Key", String(repeating: "k", count: 300))])
        #expect(reply.status == 400)
        #expect(h.t.store.messages.isEmpty)
    }

    @Test func requestIDIsEchoedWhenSafe() {
        #expect(h.call("GET", "/healthz", headers: [("X-Request-Id", "abc-123")]).headers["X-Request-Id"] == "abc-123")
        #expect(h.call("GET", "/healthz", headers: [("X-Request-Id", "bad id\n")]).headers["X-Request-Id"]?.hasPrefix("req_") == true)
    }
}
