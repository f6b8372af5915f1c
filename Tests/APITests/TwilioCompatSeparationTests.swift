import API
import Foundation
import Testing
import TwilioCompatAPI
import VerifyCore
import VerifyTesting

/// Verifications of the Twilio-compatible API and of the native API are separate: a `/v2` tenant
/// chooses codes (custom codes) and numbers it does not hold, so its verifications must never
/// become first-factor credentials through `/v1`, and `/v2` must not reach native or MFA ones.
@Suite struct TwilioCompatSeparationTests {
    typealias H = TwilioCompatHarness

    /// The attack: a tenant's custom code for a number it does not hold, checked natively.
    @Test func aCompatVerificationIsInvisibleToTheNativeAPI() throws {
        let h = H()
        let service = h.createService([("FriendlyName", "Acme"), ("CustomCodeEnabled", "true")])
        let sid = try #require(h.send(service, extra: [("CustomCode", "424242")])["sid"]?.stringValue)
        let id = "ver_" + sid.dropFirst(2)

        let check = h.native("POST", "/v1/verifications/\(id)/check", json: #"{"code":"424242"}"#)
        #expect(check.status == 404)
        #expect(check.json["error"]?["code"] == "not_found")
        #expect(check.json["credential"] == nil)
        #expect(h.native("GET", "/v1/verifications/\(id)").status == 404)
        #expect(h.native("POST", "/v1/verifications/\(id)/resend").status == 404)
        #expect(h.native("DELETE", "/v1/verifications/\(id)").status == 404)

        // Untouched by all that: still pending, and the code still works through /v2.
        let ok = h.call("POST", "/v2/Services/\(service)/VerificationCheck", form: [("VerificationSid", sid), ("Code", "424242")])
        #expect(ok.status == 200 && ok["status"] == "approved")
        // A custom code marks the verification: its approval is no conversion for the fraud guard.
        #expect(try h.t.store.read { try $0.verification(id: id) }?.purpose == .delegatedCustomCode)
        #expect(h.t.store.messages.allSatisfy { $0.purpose.isDelegated })
    }

    /// Even called directly, the domain never issues a credential for a compat verification.
    @Test func noCredentialForACompatVerification() throws {
        let h = H()
        let service = h.createService([("FriendlyName", "Acme"), ("CustomCodeEnabled", "true")])
        let sid = try #require(h.send(service, extra: [("CustomCode", "424242")])["sid"]?.stringValue)
        let id = "ver_" + sid.dropFirst(2)
        let error = #expect(throws: VerifyError.self) { try h.t.service.checkAndIssue(id: id, code: "424242") }
        #expect(error?.code == .notFound)
        let v = try #require(try h.t.store.read { try $0.verification(id: id) })
        let issuer = CredentialIssuer(issuer: "http://issuer.test", audience: "main-auth", keys: FakeSigner(), random: h.t.random)
        #expect(throws: VerifyError.self) { try issuer.firstFactor(for: v, at: h.t.clock.now()) }
    }

    /// Native and MFA verifications do not exist for `/v2`, even for the same number.
    @Test func nativeVerificationsAreInvisibleToTheCompatAPI() throws {
        let h = H()
        let service = h.createService()
        let started = h.native("POST", "/v1/verifications", json: #"{"phone_number":"+15555550123"}"#)
        #expect(started.status == 201)
        let id = try #require(started.json["id"]?.stringValue)
        let sid = "VE" + id.dropFirst(4)
        let code = try h.t.lastCode(for: id)
        #expect(h.call("GET", "/v2/Services/\(service)/Verifications/\(sid)").code == 20404)
        #expect(h.call("GET", "/v2/Services/\(service)/Verifications/%2B15555550123").code == 20404)
        #expect(h.call("POST", "/v2/Services/\(service)/Verifications/\(sid)", form: [("Status", "approved")]).code == 20404)
        #expect(h.call("POST", "/v2/Services/\(service)/Verifications/\(sid)", form: [("Status", "canceled")]).code == 20404)
        let check = h.call("POST", "/v2/Services/\(service)/VerificationCheck", form: [("VerificationSid", sid), ("Code", code)])
        #expect(check.status == 404 && check.code == 20404)
        #expect(try h.t.service.get(id: id).status == .pending)

        // Nor does the compat service reach one linked by a record it did not write itself.
        let compat = TwilioCompatService(verifications: h.t.service, store: h.t.store)
        let owned = try compat.service(sid: service, accountSID: H.account)
        try h.t.store.twilioCompatWrite { tx in
            try tx.linkTwilioCompatVerification(TwilioCompatVerificationLink(
                verificationID: id, serviceSID: service, accountSID: H.account, to: "+15555550123", createdAt: h.t.clock.now()))
        }
        #expect(throws: VerifyError.self) { try compat.verification(id: id, service: owned) }
        #expect(throws: VerifyError.self) { try compat.setStatus(id: id, approved: true, service: owned) }
        #expect(throws: VerifyError.self) { try compat.check(id: id, code: code, clientIP: "", service: owned) }
        #expect(try h.t.service.get(id: id).status == .pending)
    }
}
