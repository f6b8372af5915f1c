import Foundation
import Testing
import VerifyCore
import VerifyTesting
import API

/// `GET /v1/admin/verifications`: support's view of a number, behind a `read` key.
@Suite struct VerificationAdminAPITests {
    static let admin = "admin-key-verifications-0123"

    @Test func listsANumbersVerificationsWithoutCodes() throws {
        let reader = "read-only-key-0123456789abcdef"
        let h = APITestHarness(apiKeys: APIKeyring(admin: [Self.admin], scoped: [(scopes: [.read], key: reader)]))
        let auth = [("Authorization", "Bearer " + Self.admin)]
        let started = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+14155552671"}"#)
        #expect(started.status == 201)
        let code = try h.t.lastCode(for: try #require(started.json["id"]?.stringValue))
        let listed = h.call("GET", "/v1/admin/verifications", headers: auth, query: ["phone_number": "+14155552671"])
        #expect(listed.status == 200)
        guard case .array(let items)? = listed.json["verifications"], let first = items.first else {
            Issue.record("no verifications listed")
            return
        }
        // Pending: its id would let anyone cancel it, so a read-only key's listing hides it; a key
        // trusted to lift locks (admin) sees it.
        let id = try #require(started.json["id"]?.stringValue)
        #expect(first["id"]?.stringValue == id)
        let read = h.call("GET", "/v1/admin/verifications", headers: [("Authorization", "Bearer " + reader)], query: ["phone_number": "+14155552671"])
        #expect(read.status == 200 && !"\(read.json)".contains(id))
        #expect(first["purpose"] == "sign_in" && first["sends"]?.intValue == 1 && first["status"] == "pending")
        #expect(!"\(listed.json)".contains(code))
        #expect(h.call("GET", "/v1/admin/verifications", query: ["phone_number": "+14155552671"]).status == 401)
        #expect(h.call("GET", "/v1/admin/verifications", headers: auth, query: ["phone_number": "nope"]).errorCode == "invalid_phone_number")
        #expect(h.call("GET", "/v1/admin/verifications", headers: auth).errorCode == "invalid_request")
        #expect(h.call("GET", "/v1/admin/verifications", headers: auth, query: ["phone_number": "+14155552671", "limit": "1000"]).errorCode == "invalid_request")
    }

    /// Once ended (here canceled), a verification's id is listed again.
    @Test func endedVerificationsShowTheirIds() throws {
        let h = APITestHarness(apiKeys: APIKeyring(admin: [Self.admin]))
        let started = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+14155552671"}"#)
        let id = try #require(started.json["id"]?.stringValue)
        #expect(h.call("DELETE", "/v1/verifications/" + id).status == 200)
        let listed = h.call("GET", "/v1/admin/verifications", headers: [("Authorization", "Bearer " + Self.admin)], query: ["phone_number": "+14155552671"])
        #expect(listed.json["verifications"]?.arrayValue?.first?["id"]?.stringValue == id)
    }
}
