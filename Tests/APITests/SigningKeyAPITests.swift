import API
import Foundation
import Testing
import VerifyCore

/// `GET /v1/admin/signing-keys`: the keys' states for operators (scope `read`), never material.
@Suite struct SigningKeyAPITests {
    static let admin = String(repeating: "a", count: 32), reader = String(repeating: "r", count: 32)
    static let metrics = String(repeating: "m", count: 32)
    let h = APITestHarness(apiKeys: APIKeyring(admin: [admin], scoped: [([.read], reader), ([.metrics], metrics)]))

    func call(_ method: String = "GET", key: String?) -> APITestHarness.Reply {
        h.call(method, "/v1/admin/signing-keys", headers: key.map { [("Authorization", "Bearer " + $0)] } ?? [])
    }

    @Test func readKeysSeeEveryKeyAndItsState() throws {
        for key in [Self.admin, Self.reader] {
            let reply = call(key: key)
            #expect(reply.status == 200 && reply.headers["Cache-Control"] == "no-store")
            let keys = try #require(reply.json["signing_keys"]?.arrayValue)
            #expect(keys.compactMap { $0["kid"]?.stringValue } == ["old", "new"])
            #expect(keys.compactMap { $0["status"]?.stringValue } == ["verifying", "active"])
            #expect(keys.allSatisfy { $0["published"] == true } && keys[1]["retire_after"] == .null)
            #expect(keys.allSatisfy { $0["public_jwk"] == nil })
        }
    }

    @Test func otherCallersAreRefused() {
        #expect(call(key: nil).status == 401)
        #expect(call(key: "unknown-key-unknown-key").status == 401)
        let forbidden = call(key: Self.metrics)
        #expect(forbidden.status == 403 && forbidden.errorCode == "forbidden")
        #expect(call("DELETE", key: Self.admin).status == 405)
    }
}

/// Two keys mid-rotation, for the API tests: the new one active, the old one verifying another hour.
struct FakeSigningKeys: SigningKeyStore {
    let now: Date
    func signingKeys() throws -> [SigningKeyRecord] {
        [
            SigningKeyRecord(
                kid: "old", algorithm: "EdDSA", publicJWK: "{}", createdAt: now.addingTimeInterval(-86_400), status: .verifying,
                retireAfter: now.addingTimeInterval(3600)),
            SigningKeyRecord(kid: "new", algorithm: "EdDSA", publicJWK: "{}", createdAt: now.addingTimeInterval(-60), status: .active),
        ]
    }
    func activate(_ record: SigningKeyRecord, now: Date, credentialLifetime: TimeInterval) throws {}
    func retire(kid: String) throws -> Bool { false }
    func keepPublished(kid: String, until: Date) throws {}
}
