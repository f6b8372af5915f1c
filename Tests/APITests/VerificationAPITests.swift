import API
import Foundation
import HTTPMessages
import Testing
import VerifyCore
import VerifyTesting

@Suite struct VerificationAPITests {
    let h = APITestHarness()

    @Test func startReturns201WithTheContractFields() throws {
        let reply = h.start()
        #expect(reply.status == 201)
        #expect(reply.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(reply.headers["X-Request-Id"]?.hasPrefix("req_") == true)
        #expect(reply.headers["Cache-Control"] == "no-store")
        let id = try #require(reply.json["id"]?.stringValue)
        #expect(id.hasPrefix("ver_"))
        #expect(reply.headers["Location"] == "/v1/verifications/" + id)
        #expect(reply.json["status"] == "pending")
        #expect(reply.json["phone_number"] == "+15555550123")
        #expect(reply.json["channel"] == "sms")
        #expect(reply.json["attempts_remaining"] == 5)
        #expect(reply.json["code_length"] == 6)
        #expect(reply.json["expires_at"]?.stringValue?.hasSuffix("Z") == true)
        #expect(reply.json["resend_available_at"] != nil)
    }

    @Test func fullFlowStartCheckGetCancel() throws {
        let id = try #require(h.start().json["id"]?.stringValue)
        let code = try h.t.lastCode(for: id)
        let wrong = code == "000000" ? "111111" : "000000"
        let bad = h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(wrong)"}"#)
        #expect(bad.status == 422)
        #expect(bad.errorCode == "incorrect_code")
        #expect(bad.json["error"]?["details"]?["attempts_remaining"] == 4)

        let ok = h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#)
        #expect(ok.status == 200)
        #expect(ok.json["status"] == "approved")
        #expect(ok.json["credential"]?["token_type"] == "Bearer")
        #expect(ok.json["credential"]?["expires_in"] == 300)
        #expect(ok.json["credential"]?["token"]?.stringValue?.split(separator: ".").count == 3)

        let again = h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#)
        #expect(again.status == 409)
        #expect(again.errorCode == "already_used")

        let get = h.call("GET", "/v1/verifications/\(id)")
        #expect(get.status == 200)
        #expect(get.json["status"] == "approved")
        #expect(get.json["delivery"]?["status"] == "queued")  // the fake worker never sends

        let cancel = h.call("DELETE", "/v1/verifications/\(id)")
        #expect(cancel.status == 409)
    }

    @Test func maxAttemptsIs429AndExpiredIs410() throws {
        let id = try #require(h.start().json["id"]?.stringValue)
        let code = try h.t.lastCode(for: id)
        let wrong = code == "000000" ? "111111" : "000000"
        for _ in 0..<5 { h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(wrong)"}"#) }
        let blocked = h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#)
        #expect(blocked.status == 429)
        #expect(blocked.errorCode == "max_attempts_reached")
        #expect(blocked.headers["Retry-After"] != nil)

        let other = try #require(h.start("+15555550199").json["id"]?.stringValue)
        h.t.clock.advance(301)
        let expired = h.call("POST", "/v1/verifications/\(other)/check", json: #"{"code":"123456"}"#)
        #expect(expired.status == 410)
        #expect(expired.errorCode == "expired")
    }

    @Test func resendTooSoonCarriesRetryAfter() throws {
        let id = try #require(h.start().json["id"]?.stringValue)
        let early = h.call("POST", "/v1/verifications/\(id)/resend")
        #expect(early.status == 429)
        #expect(early.errorCode == "resend_too_soon")
        #expect(early.headers["Retry-After"] == "30")
        h.t.clock.advance(30)
        let ok = h.call("POST", "/v1/verifications/\(id)/resend")
        #expect(ok.status == 200)
        #expect(ok.json["status"] == "pending")
    }

    @Test func cancelReturns200Canceled() throws {
        let id = try #require(h.start().json["id"]?.stringValue)
        let reply = h.call("DELETE", "/v1/verifications/\(id)")
        #expect(reply.status == 200)
        #expect(reply.json["status"] == "canceled")
    }

    @Test func unknownAndMalformedIdsAre404() {
        #expect(h.call("GET", "/v1/verifications/ver_unknown").errorCode == "not_found")
        #expect(h.call("GET", "/v1/verifications/xyz").status == 404)
        #expect(h.call("POST", "/v1/verifications/ver_x/check", json: #"{"code":"123456"}"#).status == 404)
    }

    @Test func idempotencyKeyReplays() throws {
        let first = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550123"}"#, headers: [("Idempotency-Key", "abc")])
        let second = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550123"}"#, headers: [("Idempotency-Key", "abc")])
        #expect(first.status == 201 && second.status == 201)
        #expect(first.json == second.json)
        #expect(second.headers["Idempotent-Replayed"] == "true")
        #expect(h.t.store.messages.count == 1)
        // Another number with the same key is another request: it never sees the first one's id.
        let another = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550124"}"#, headers: [("Idempotency-Key", "abc")])
        #expect(another.status == 201 && another.json["id"] != first.json["id"])
        let reused = h.call(
            "POST", "/v1/verifications", json: #"{"phone_number":"+15555550123","locale":"fr"}"#, headers: [("Idempotency-Key", "abc")])
        #expect(reused.status == 422)
        #expect(reused.errorCode == "idempotency_key_reused")
        #expect(reused.json["error"]?["details"]?["verification_id"] == nil)
    }

    @Test func phoneErrors() {
        let invalid = h.start("12")
        #expect(invalid.status == 400)
        #expect(invalid.errorCode == "invalid_phone_number")
        #expect(invalid.json["error"]?["details"]?["reason"] == "too_short")
        let tollFree = h.start("+18005550100")
        #expect(tollFree.status == 422)
        #expect(tollFree.errorCode == "unsupported_line_type")
        let national = h.call("POST", "/v1/verifications", json: #"{"phone_number":"555 555 0123","default_region":"us"}"#)
        #expect(national.status == 201)
        #expect(national.json["phone_number"] == "+15555550123")
        #expect(h.t.store.messages.count == 1)
    }
}
