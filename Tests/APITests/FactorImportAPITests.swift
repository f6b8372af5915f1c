import API
import Foundation
import HTTPMessages
import Testing
import VerifyCore
import VerifyTesting

/// `POST /v1/admin/users/{id}/factors`: importing a verified phone factor (docs/MFA.md
/// "Importing factors").
@Suite struct FactorImportAPITests {
    static let factorsKey = "factors-key-0123456789"
    static let readKey = "read-key-0123456789ab"
    let h = APITestHarness(apiKeys: APIKeyring(scoped: [([.factors], factorsKey), ([.read, .fraud], readKey)]))

    func auth(_ key: String = factorsKey) -> [(String, String)] { [("Authorization", "Bearer " + key)] }

    func importing(_ json: String, user: String = "user-alice", key: String = factorsKey) -> APITestHarness.Reply {
        h.call("POST", "/v1/admin/users/\(user)/factors", json: json, headers: auth(key))
    }

    @Test func anImportedFactorIsListedAndUsableWithoutACode() throws {
        let created = importing(#"{"phone_number": "+15555550123", "display_name": "  Work phone "}"#)
        #expect(created.status == 201)
        let factor = try #require(created.json["factor"])
        #expect(factor["phone_number_hint"] == "+1*******0123")
        #expect(factor["display_name"] == "Work phone")
        #expect(factor["last_used_at"] == .null)
        #expect(h.t.store.messages.isEmpty)  // nothing was sent
        // The same shape as the admin listing and the user's own listing.
        let listed = h.call("GET", "/v1/admin/users/user-alice/factors", headers: auth(Self.readKey)).json["factors"]
        #expect(listed == .array([factor]))
        let own = h.call("GET", "/v1/mfa/factors", headers: [("Authorization", "Bearer alice")]).json["factors"]
        #expect(own == .array([factor]))
        // The user can step up with it at once.
        let id = try #require(factor["id"]?.stringValue)
        let challenge = h.call("POST", "/v1/mfa/challenges", json: #"{"factor_id":"\#(id)"}"#, headers: [("Authorization", "Bearer alice")])
        #expect(challenge.status == 201)
        // Without a display name the member is null.
        let plain = importing(#"{"phone_number": "+15555550124"}"#)
        #expect(plain.status == 201 && plain.json["factor"]?["display_name"] == .null)
        let null = importing(#"{"phone_number": "+15555550125", "display_name": null}"#)
        #expect(null.status == 201 && null.json["factor"]?["display_name"] == .null)
    }

    @Test func aDuplicateIs409AndChangesNothing() {
        #expect(importing(#"{"phone_number": "+15555550123"}"#).status == 201)
        let again = importing(#"{"phone_number": "+15555550123", "display_name": "Other"}"#)
        #expect(again.status == 409 && again.errorCode == "factor_exists")
        let listed = h.call("GET", "/v1/admin/users/user-alice/factors", headers: auth()).json["factors"]?.arrayValue
        #expect(listed?.count == 1 && listed?.first?["display_name"] == .null)
        // The same phone for another user is that user's own factor.
        #expect(importing(#"{"phone_number": "+15555550123"}"#, user: "user-bob").status == 201)
    }

    @Test(arguments: [
        (#"{"phone_number": "hello"}"#, "invalid_phone_number"),
        (#"{"phone_number": ""}"#, "invalid_request"),
        (#"{}"#, "invalid_request"),
        (#"{"phone_number": "+15555550123", "display_name": ""}"#, "invalid_request"),
        (#"{"phone_number": 15555550123}"#, "invalid_request"),
        (#"{"phone_number": "+15555550123", "display_name": "\#(String(repeating: "x", count: 65))"}"#, "invalid_request"),
        (#"{"phone_number": "+15555550123", "display_name": "bell\u0007"}"#, "invalid_request"),
        ("not json", "invalid_request"),
    ])
    func badInputIsA400AndStoresNothing(_ json: String, _ code: String) {
        let reply = importing(json)
        #expect(reply.status == 400)
        #expect(reply.errorCode == code)
        #expect(h.call("GET", "/v1/admin/users/user-alice/factors", headers: auth()).json["factors"] == .array([]))
    }

    @Test func onlyTheFactorsScopeMayImport() {
        let withoutScope = importing(#"{"phone_number": "+15555550123"}"#, key: Self.readKey)
        #expect(withoutScope.status == 403 && withoutScope.errorCode == "forbidden")
        let noKey = h.call("POST", "/v1/admin/users/user-alice/factors", json: #"{"phone_number": "+15555550123"}"#)
        #expect(noKey.status == 401)
        let wrongKey = importing(#"{"phone_number": "+15555550123"}"#, key: "not-a-key-0123456789")
        #expect(wrongKey.status == 401)
        #expect(h.call("GET", "/v1/admin/users/user-alice/factors", headers: auth()).json["factors"] == .array([]))
    }

    @Test func theFactorLimitHolds() {
        for n in 0..<10 { #expect(importing(#"{"phone_number": "+1555555\#(1000 + n)"}"#).status == 201) }
        let over = importing(#"{"phone_number": "+15555559999"}"#)
        #expect(over.status == 409 && over.errorCode == "factor_limit_reached")
    }
}
