import Foundation
import HTTPMessages
import Testing
import VerifyCore
import VerifyTesting

/// `POST /v1/credentials/introspect` (RFC 7662): admin key, form or JSON body, one-time redemption.
@Suite struct IntrospectionAPITests {
    static let adminKey = "admin-key-0123456789"
    let h = APITestHarness(adminKey: Self.adminKey)
    let admin = [("Authorization", "Bearer " + Self.adminKey)]

    func credential() throws -> String {
        let id = try #require(h.start().json["id"]?.stringValue)
        let code = try h.t.lastCode(for: id)
        let ok = h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#)
        return try #require(ok.json["credential"]?["token"]?.stringValue)
    }

    @Test func anActiveCredentialAnswersWithItsClaimsOnceThenInactive() throws {
        let token = try credential()
        let first = h.call("POST", "/v1/credentials/introspect", form: "token=" + token, headers: admin)
        #expect(first.status == 200)
        #expect(first.headers["Cache-Control"] == "no-store")
        #expect(first.json["active"] == true)
        #expect(first.json["sub"] == "tel:+15555550123" && first.json["aud"] == "main-auth")
        #expect(first.json["jti"]?.stringValue?.hasPrefix("jti_") == true && first.json["exp"]?.intValue != nil)
        let second = h.call("POST", "/v1/credentials/introspect", form: "token_type_hint=access_token&token=" + token, headers: admin)
        #expect(second.status == 200 && second.json == ["active": false])
    }

    @Test func aJSONBodyWorksToo() throws {
        let token = try credential()
        let reply = h.call("POST", "/v1/credentials/introspect", json: #"{"token":"\#(token)"}"#, headers: admin)
        #expect(reply.status == 200 && reply.json["active"] == true)
    }

    @Test func invalidAndExpiredCredentialsSayOnlyInactive() throws {
        let token = try credential()
        h.t.clock.advance(301)
        for presented in [token, "garbage", "a.b.c"] {
            let reply = h.call("POST", "/v1/credentials/introspect", form: "token=" + presented, headers: admin)
            #expect(reply.status == 200 && reply.json == ["active": false])
        }
    }

    @Test func withoutAnAdminKeyNothingIsRedeemed() throws {
        let token = try credential()
        for headers in [[], [("Authorization", "Bearer wrong-key-0123456789")], [("Authorization", "Basic " + Self.adminKey)]] {
            let reply = h.call("POST", "/v1/credentials/introspect", form: "token=" + token, headers: headers)
            #expect(reply.status == 401 && reply.errorCode == "unauthenticated")
        }
        #expect(h.call("POST", "/v1/credentials/introspect", form: "token=" + token, headers: admin).json["active"] == true)
    }

    @Test func aMissingTokenOrAnotherMediaTypeIsA4xx() {
        let missing = h.call("POST", "/v1/credentials/introspect", form: "token_type_hint=access_token", headers: admin)
        #expect(missing.status == 400 && missing.errorCode == "invalid_request")
        #expect(missing.json["error"]?["details"]?["field"] == "token")
        #expect(h.call("POST", "/v1/credentials/introspect", form: "token=", headers: admin).status == 400)
        #expect(h.call("POST", "/v1/credentials/introspect", json: "{}", headers: admin).status == 400)
        let long = h.call("POST", "/v1/credentials/introspect", form: "token=" + String(repeating: "a", count: 9000), headers: admin)
        #expect(long.status == 400)
        #expect(h.call("POST", "/v1/credentials/introspect", headers: admin).status == 400)
        let text = h.call("POST", "/v1/credentials/introspect", form: "token=a.b.c", headers: admin + [("Content-Type", "text/plain")])
        #expect(text.status == 415 && text.errorCode == "unsupported_media_type")
    }

    @Test func aStoreFailureIsA5xxNeverAnInactiveAnswer() throws {
        let down = APITestHarness(adminKey: Self.adminKey, redemptions: FailingRedemptions())
        let id = try #require(down.start().json["id"]?.stringValue)
        let code = try down.t.lastCode(for: id)
        let token = try #require(down.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#).json["credential"]?["token"]?.stringValue)
        let reply = down.call("POST", "/v1/credentials/introspect", form: "token=" + token, headers: admin)
        #expect(reply.status == 500 && reply.json["active"] == nil)
    }

    @Test func aRepeatedTokenParameterIsRefused() throws {
        let token = try credential()
        let reply = h.call("POST", "/v1/credentials/introspect", form: "token=\(token)&token=\(token)", headers: admin)
        #expect(reply.status == 400 && reply.errorCode == "invalid_request")
        #expect(h.call("POST", "/v1/credentials/introspect", form: "token=" + token, headers: admin).json["active"] == true)
    }

    @Test func discoveryAdvertisesTheEndpoint() {
        let document = h.call("GET", "/.well-known/openid-configuration")
        #expect(document.json["introspection_endpoint"] == "http://issuer.test/v1/credentials/introspect")
    }
}
