import API
import Foundation
import HTTPMessages
import Testing
import VerifyCore
import VerifyTesting

@Suite struct MFAAPITests {
    let h = APITestHarness()

    func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer " + token)] }

    func enrol(_ token: String = "alice", phone: String = "+15555550123") throws -> String {
        let started = h.call("POST", "/v1/mfa/enrollments", json: #"{"phone_number":"\#(phone)"}"#, headers: bearer(token))
        #expect(started.status == 201)
        #expect(started.json["purpose"] == "mfa_enroll")
        let id = try #require(started.json["id"]?.stringValue)
        let confirmed = h.call("POST", "/v1/mfa/enrollments/\(id)/confirm", json: #"{"code":"\#(try h.t.lastCode(for: id))"}"#, headers: bearer(token))
        #expect(confirmed.status == 201)
        #expect(confirmed.json["factor"]?["phone_number_hint"]?.stringValue == "+1*******" + String(phone.suffix(4)))
        return try #require(confirmed.json["factor"]?["id"]?.stringValue)
    }

    @Test func missingOrBadTokensAre401WithTheBearerChallenge() {
        // RFC 6750 §3.1: no credentials (or another scheme's) get the challenge without an error
        // code; a bad token gets invalid_token.
        for (headers, challenge) in [([], "Bearer"), ([("Authorization", "Basic abc")], "Bearer"), (bearer("expired"), #"Bearer error="invalid_token""#)] {
            let reply = h.call("GET", "/v1/mfa/factors", headers: headers)
            #expect(reply.status == 401)
            #expect(reply.errorCode == "unauthenticated")
            #expect(reply.headers["WWW-Authenticate"] == challenge)
        }
    }

    @Test func fullFlowOverTheAPI() throws {
        let factorID = try enrol()
        let list = h.call("GET", "/v1/mfa/factors", headers: bearer("alice"))
        #expect(list.json["factors"]?.arrayValue?.count == 1)
        #expect(!list.json.encodedString().contains("5555550123"))
        let challenge = h.call("POST", "/v1/mfa/challenges", json: #"{"factor_id":"\#(factorID)"}"#, headers: bearer("alice"))
        #expect(challenge.status == 201)
        #expect(challenge.json["purpose"] == "mfa_step_up")
        #expect(challenge.json["phone_number"] == nil)
        #expect(challenge.json["phone_number_hint"] == "+1*******0123")
        let id = try #require(challenge.json["id"]?.stringValue)
        let verified = h.call("POST", "/v1/mfa/challenges/\(id)/verify", json: #"{"code":"\#(try h.t.lastCode(for: id))"}"#, headers: bearer("alice"))
        #expect(verified.status == 200)
        #expect(verified.json["status"] == "approved")
        #expect(verified.json["credential"]?["token_type"] == "Bearer")
    }

    @Test func samePhoneTwiceIs409() throws {
        _ = try enrol()
        let again = h.call("POST", "/v1/mfa/enrollments", json: #"{"phone_number":"+15555550123"}"#, headers: bearer("alice"))
        #expect(again.status == 409)
        #expect(again.errorCode == "factor_exists")
    }

    @Test func factorsOfOneUserAreInvisibleToOthers() throws {
        let factorID = try enrol()
        #expect(h.call("GET", "/v1/mfa/factors", headers: bearer("bob")).json["factors"] == [])
        #expect(h.call("POST", "/v1/mfa/challenges", json: #"{"factor_id":"\#(factorID)"}"#, headers: bearer("bob")).status == 404)
        #expect(h.call("DELETE", "/v1/mfa/factors/\(factorID)", headers: bearer("bob")).status == 403)  // step-up is checked first
    }

    @Test func deletingNeedsStepUpPerRFC9470() throws {
        let factorID = try enrol()
        let refused = h.call("DELETE", "/v1/mfa/factors/\(factorID)", headers: bearer("alice"))
        #expect(refused.status == 403)
        #expect(refused.errorCode == "step_up_required")
        #expect(refused.headers["WWW-Authenticate"]?.contains(#"error="insufficient_user_authentication""#) == true)
        #expect(refused.headers["WWW-Authenticate"]?.contains("max_age=600") == true)
        let deleted = h.call("DELETE", "/v1/mfa/factors/\(factorID)", headers: bearer("alice-stepped"))
        #expect(deleted.status == 200)
        #expect(deleted.json["deleted"] == true)
        #expect(h.call("GET", "/v1/mfa/factors", headers: bearer("alice")).json["factors"] == [])
    }

    @Test func mfaIdsAreUnknownToTheFirstFactorAPI() throws {
        let started = h.call("POST", "/v1/mfa/enrollments", json: #"{"phone_number":"+15555550123"}"#, headers: bearer("alice"))
        let id = try #require(started.json["id"]?.stringValue)
        #expect(h.call("GET", "/v1/verifications/\(id)").status == 404)
        #expect(h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(try h.t.lastCode(for: id))"}"#).status == 404)
    }

    @Test func adminCanListAndRemoveAUsersFactors() throws {
        let h = APITestHarness(adminKey: "admin-key-0123456789")
        let started = h.call("POST", "/v1/mfa/enrollments", json: #"{"phone_number":"+15555550123"}"#, headers: bearer("alice"))
        let id = try #require(started.json["id"]?.stringValue)
        let factorID = try #require(h.call("POST", "/v1/mfa/enrollments/\(id)/confirm", json: #"{"code":"\#(try h.t.lastCode(for: id))"}"#, headers: bearer("alice")).json["factor"]?["id"]?.stringValue)
        let auth = [("Authorization", "Bearer admin-key-0123456789")]
        #expect(h.call("GET", "/v1/admin/users/user-alice/factors").status == 401)
        #expect(h.call("GET", "/v1/admin/users/user-alice/factors", headers: auth).json["factors"]?.arrayValue?.count == 1)
        #expect(h.call("DELETE", "/v1/admin/users/user-bob/factors/\(factorID)", headers: auth).status == 404)
        #expect(h.call("DELETE", "/v1/admin/users/user-alice/factors/\(factorID)", headers: auth).status == 200)
        #expect(h.call("GET", "/v1/mfa/factors", headers: bearer("alice")).json["factors"] == [])
    }

    @Test func aConfirmedFactorKeepsTheNameTheUserGaveIt() throws {
        let started = h.call("POST", "/v1/mfa/enrollments", json: #"{"phone_number":"+15555550123"}"#, headers: bearer("alice"))
        let id = try #require(started.json["id"]?.stringValue)
        let code = try h.t.lastCode(for: id)
        // A bad name is refused before the code is looked at: the attempt is not spent.
        let bad = h.call("POST", "/v1/mfa/enrollments/\(id)/confirm", json: #"{"code":"\#(code)","display_name":"\#(String(repeating: "n", count: 65))"}"#, headers: bearer("alice"))
        #expect(bad.status == 400 && bad.errorCode == "invalid_request")
        let confirmed = h.call("POST", "/v1/mfa/enrollments/\(id)/confirm", json: #"{"code":"\#(code)","display_name":"Work phone"}"#, headers: bearer("alice"))
        #expect(confirmed.status == 201 && confirmed.json["factor"]?["display_name"] == "Work phone")
        #expect(h.call("GET", "/v1/mfa/factors", headers: bearer("alice")).json["factors"]?.arrayValue?.first?["display_name"] == "Work phone")
    }
}
