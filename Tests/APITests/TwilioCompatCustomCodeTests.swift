import Foundation
import Testing
import VerifyCore

/// Custom codes let a caller choose the code, so they are the operator's decision per account
/// (`PHONE_VERIFY_TWILIO_COMPAT_CUSTOM_CODE_ACCOUNTS`), never a tenant's own API call.
@Suite struct TwilioCompatCustomCodeTests {
    typealias H = TwilioCompatHarness
    static let other = H.basic(H.other, H.otherToken)

    @Test func anAccountNotAllowedCannotEnableCustomCodes() throws {
        let h = H()
        let created = h.call("POST", "/v2/Services", form: [("FriendlyName", "Acme"), ("CustomCodeEnabled", "true")], auth: Self.other)
        #expect(created.status == 400 && created.code == 60200)
        #expect(created["message"]?.stringValue?.contains("CustomCodeEnabled") == true)

        let plain = try #require(h.call("POST", "/v2/Services", form: [("FriendlyName", "Acme")], auth: Self.other)["sid"]?.stringValue)
        let updated = h.call("POST", "/v2/Services/\(plain)", form: [("CustomCodeEnabled", "true")], auth: Self.other)
        #expect(updated.status == 400 && updated.code == 60200)
        #expect(h.call("GET", "/v2/Services/\(plain)", auth: Self.other)["custom_code_enabled"] == .bool(false))
        // Turning it off, or leaving it off, is always allowed.
        #expect(h.call("POST", "/v2/Services/\(plain)", form: [("CustomCodeEnabled", "false")], auth: Self.other).status == 200)
    }

    /// A service that enabled custom codes before the operator's list existed cannot use them.
    @Test func aServiceEnabledBeforeTheUpgradeStillRefusesCustomCodes() throws {
        let h = H()
        var settings = TwilioCompatServiceSettings(friendlyName: "Legacy", codeLength: 6)
        settings.customCodeEnabled = true
        let legacy = TwilioCompatServiceRecord(
            sid: "VA" + String(repeating: "e", count: 32), accountSID: H.other, settings: settings,
            createdAt: h.t.clock.now(), updatedAt: h.t.clock.now())
        try h.t.store.twilioCompatWrite { tx in try tx.saveTwilioCompatService(legacy) }

        let refused = h.call(
            "POST", "/v2/Services/\(legacy.sid)/Verifications",
            form: [("To", "+15555550123"), ("Channel", "sms"), ("CustomCode", "424242")], auth: Self.other)
        #expect(refused.status == 400 && refused.code == 60200)
        #expect(refused["message"]?.stringValue?.contains("CustomCode") == true)
        #expect(h.t.store.messages.isEmpty)
        // Its other settings can still be changed, and generated codes still work.
        #expect(h.call("POST", "/v2/Services/\(legacy.sid)", form: [("CodeLength", "8")], auth: Self.other).status == 200)
        let started = h.call("POST", "/v2/Services/\(legacy.sid)/Verifications", form: [("To", "+15555550123"), ("Channel", "sms")], auth: Self.other)
        #expect(started.status == 201)
    }

    @Test func noAccountIsAllowedByDefault() throws {
        let h = H(customCodeAccounts: [])
        let created = h.call("POST", "/v2/Services", form: [("FriendlyName", "Acme"), ("CustomCodeEnabled", "true")])
        #expect(created.status == 400 && created.code == 60200)
    }

    /// The domain refuses a custom code outside the compatible API's own verifications.
    @Test func aCustomCodeIsOnlyForCompatVerifications() throws {
        let h = H()
        let start = StartRequest(phoneNumber: "+15555550123", options: SendOptions(customCode: "424242"))
        let error = #expect(throws: VerifyError.self) { try h.t.service.start(start) }
        #expect(error?.code == .invalidRequest)
        let native = try h.t.service.start(StartRequest(phoneNumber: "+15555550124"))
        h.t.clock.advance(60)
        #expect(throws: VerifyError.self) {
            try h.t.service.resend(id: native.verification.id, options: SendOptions(customCode: "424242"))
        }
    }
}
