import VendorTesting
import Foundation
import HTTPMessages
import SettingsTable
import Testing
import Vendors
import VerifyCore

/// Telnyx's Messaging API as its docs describe it, spoken by a fake on 127.0.0.1: a Bearer key,
/// a JSON `from`/`to`/`text` body, `data.id` back, `errors[].code` on refusal.
@Suite struct TelnyxGatewayTests {
    func gateway(_ vendor: FakeVendor, profile: String? = nil) -> TelnyxGateway {
        TelnyxGateway(
            configuration: TelnyxConfiguration(apiKey: "KEY0123", from: "+15550001111", messagingProfileID: profile, baseURL: vendor.base),
            http: http())
    }

    static func errors(_ code: String) -> String {
        #"{"errors":[{"code":"\#(code)","title":"Refused","detail":"refused for the test"}]}"#
    }

    @Test func requestFormatAndSuccess() throws {
        let vendor = try FakeVendor(.reply(200, #"{"data":{"record_type":"message","id":"40317f5a-0001","to":[{"phone_number":"+14155552671","status":"queued"}]}}"#, []))
        defer { vendor.stop() }
        #expect(gateway(vendor).send(sms) == .sent(via: "telnyx", providerMessageID: "40317f5a-0001", status: .sent))
        let request = try #require(vendor.requests.first)
        #expect(request.method == "POST" && request.path == "/v2/messages")
        #expect(request.headers["Authorization"] == "Bearer KEY0123")
        #expect(request.headers["Content-Type"]?.hasPrefix("application/json") == true)
        let body = try JSONValue.parse(request.body)
        #expect(body["from"]?.stringValue == "+15550001111" && body["to"]?.stringValue == "+14155552671")
        #expect(body["text"]?.stringValue == "Your code is 123456" && body["messaging_profile_id"] == nil)
    }

    @Test func theMessagingProfileIsSentWhenConfigured() throws {
        let vendor = try FakeVendor(.reply(200, #"{"data":{"id":"m1"}}"#, []))
        defer { vendor.stop() }
        _ = gateway(vendor, profile: "profile-1").send(sms)
        #expect(try JSONValue.parse(try #require(vendor.requests.first).body)["messaging_profile_id"]?.stringValue == "profile-1")
    }

    @Test func refusalsAreClassified() throws {
        let vendor = try FakeVendor(.reply(401, Self.errors("10009"), []))
        defer { vendor.stop() }
        vendor.script([.reply(400, Self.errors("40310"), []), .reply(429, Self.errors("10011"), [("Retry-After", "7")]),
                       .reply(503, "", [])])
        guard case .permanent(let invalid) = gateway(vendor).send(sms) else { Issue.record("40310 must be permanent"); return }
        #expect(invalid.contains("40310"))
        guard case .retryable(_, 7) = gateway(vendor).send(sms) else { Issue.record("429 must be retried after Retry-After"); return }
        guard case .retryable(_, nil) = gateway(vendor).send(sms) else { Issue.record("503 must be retryable"); return }
        guard case .retryable(let auth, nil) = gateway(vendor).send(sms) else { Issue.record("401 must fail over"); return }
        #expect(auth.contains("10009") && !auth.contains("KEY0123"))
    }

    @Test func aSuccessWithoutAnIdIsRetried() throws {
        let vendor = try FakeVendor(.reply(200, #"{"data":{}}"#, []))
        defer { vendor.stop() }
        guard case .retryable = gateway(vendor).send(sms) else { Issue.record("no id: retryable"); return }
    }

    @Test func settingsAreReadOnlyWhenTheSMSListNamesTelnyx() {
        let unused = GatewayLists(sms: ["twilio"], whatsApp: [], voice: [])
        var reader = SettingReader(values: [:])
        #expect(TelnyxVendor.read(&reader, lists: unused).settings == nil && reader.problems.isEmpty)
        let lists = GatewayLists(sms: ["telnyx"], whatsApp: ["telnyx"], voice: [])
        reader = SettingReader(values: ["PHONE_VERIFY_TELNYX_API_KEY": "k"])
        let vendor = TelnyxVendor.read(&reader, lists: lists)
        #expect(reader.problems == ["PHONE_VERIFY_TELNYX_FROM is required by the telnyx gateway"])
        #expect(vendor.settings?.baseURL == "https://api.telnyx.com" && vendor.settings?.apiKey == "k")
        #expect(TelnyxVendor.channels == [.sms])
    }
}
