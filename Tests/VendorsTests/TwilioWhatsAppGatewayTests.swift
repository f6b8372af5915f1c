import VendorTesting
import Foundation
import Gateways
import CurlClient
import HTTPMessages
import Testing
import Vendors
import VerifyCore

@Suite struct TwilioWhatsAppGatewayTests {
    static let contentSIDs = ["en": "HX" + String(repeating: "e", count: 32), "de": "HX" + String(repeating: "d", count: 32)]
    static let defaultSID = "HX" + String(repeating: "0", count: 32)

    func gateway(_ vendor: FakeVendor, from: String = "+14155238886") -> TwilioWhatsAppGateway {
        TwilioWhatsAppGateway(
            configuration: TwilioWhatsAppConfiguration(
                accountSID: "AC123", authToken: "tok", from: from, defaultContentSID: Self.defaultSID, contentSIDs: Self.contentSIDs,
                baseURL: vendor.base, statusCallbackURL: "https://verify.example.com/v1/webhooks/twilio/status"),
            http: http())
    }

    @Test func requestIsAContentTemplate() throws {
        let vendor = try FakeVendor(.reply(201, #"{"sid":"MM0001","status":"queued"}"#, []))
        defer { vendor.stop() }
        #expect(gateway(vendor).send(whatsapp) == .sent(via: "twilio-whatsapp", providerMessageID: "MM0001", status: .sent))
        let request = try #require(vendor.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/2010-04-01/Accounts/AC123/Messages.json")
        #expect(request.headers["Authorization"] == "Basic " + Data("AC123:tok".utf8).base64EncodedString())
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(formFields(request) == [
            "To": "whatsapp:+4915112345678", "From": "whatsapp:+14155238886", "ContentSid": Self.contentSIDs["de"]!,
            "ContentVariables": #"{"1":"482913"}"#, "StatusCallback": "https://verify.example.com/v1/webhooks/twilio/status",
        ])
        // No Body: the SMS text never goes out, the code only inside ContentVariables.
        #expect(occurrences(of: "482913", in: request.body) == 1)
        #expect(occurrences(of: "Dein", in: request.body) == 0)
    }

    @Test func senderForms() throws {
        let vendor = try FakeVendor(.reply(201, #"{"sid":"MM2"}"#, []))
        defer { vendor.stop() }
        let service = "MG" + String(repeating: "0a", count: 16)
        _ = gateway(vendor, from: service).send(whatsapp)
        let fields = formFields(try #require(vendor.requests.last))
        #expect(fields["MessagingServiceSid"] == service && fields["From"] == nil)
        _ = gateway(vendor, from: "whatsapp:+14155238886").send(whatsapp)
        #expect(formFields(try #require(vendor.requests.last))["From"] == "whatsapp:+14155238886")
    }

    @Test func contentTemplatePerLanguage() {
        let c = TwilioWhatsAppConfiguration(accountSID: "AC1", authToken: "t", from: "+1", defaultContentSID: Self.defaultSID, contentSIDs: Self.contentSIDs)
        #expect(c.contentSID(for: "en-US") == Self.contentSIDs["en"])
        #expect(c.contentSID(for: "de") == Self.contentSIDs["de"])
        #expect(c.contentSID(for: "fr") == Self.defaultSID)
        #expect(c.contentSID(for: nil) == Self.defaultSID)
    }

    @Test func errorsAreClassified() throws {
        let vendor = try FakeVendor(.reply(500, "{}", []))
        defer { vendor.stop() }
        let g = gateway(vendor)
        vendor.script([
            .reply(400, #"{"code":63003,"message":"Channel could not find To address","status":400}"#, []),
            .reply(400, #"{"code":63024,"message":"Invalid message recipient","status":400}"#, []),
            .reply(400, #"{"code":21211,"message":"Invalid 'To' Phone Number","status":400}"#, []),
            .reply(401, #"{"code":20003,"message":"Authenticate","status":401}"#, []),
            .reply(400, #"{"code":63007,"message":"Twilio could not find a Channel with the specified From address","status":400}"#, []),
            .reply(429, #"{"code":20429,"message":"Too Many Requests"}"#, [("Retry-After", "4")]),
            .reply(502, "bad gateway", []),
        ])
        guard case .unroutable(let notOnWhatsApp) = g.send(whatsapp) else { Issue.record("63003 must be unroutable"); return }
        #expect(notOnWhatsApp.contains("63003"))
        guard case .unroutable = g.send(whatsapp) else { Issue.record("63024 must be unroutable"); return }
        guard case .permanent = g.send(whatsapp) else { Issue.record("21211 must be permanent"); return }
        guard case .retryable(let auth, nil) = g.send(whatsapp) else { Issue.record("401 must fail over"); return }
        #expect(auth.contains("20003") && !auth.contains("tok"))
        guard case .retryable(let sender, nil) = g.send(whatsapp) else { Issue.record("63007 must fail over"); return }
        #expect(sender.contains("63007"))
        guard case .retryable(_, 4) = g.send(whatsapp) else { Issue.record("429 must honour Retry-After"); return }
        guard case .retryable = g.send(whatsapp) else { Issue.record("502 must be retryable"); return }
    }

    @Test func refusedConnectionIsRetryable() {
        let g = TwilioWhatsAppGateway(
            configuration: TwilioWhatsAppConfiguration(accountSID: "AC1", authToken: "t", from: "+1", defaultContentSID: "HX1", baseURL: "http://127.0.0.1:\(closedPort())"),
            http: http())
        guard case .retryable = g.send(whatsapp) else { Issue.record("refused connection must be retryable"); return }
    }

    @Test func statusCallbacks() {
        #expect(TwilioWhatsAppGateway.deliveryStatus("read", errorCode: nil) == .delivered)
        #expect(TwilioWhatsAppGateway.deliveryStatus("undelivered", errorCode: "63003") == .undelivered)
        #expect(TwilioWhatsAppGateway.deliveryStatus("failed", errorCode: "63024") == .undelivered)
        #expect(TwilioWhatsAppGateway.deliveryStatus("failed", errorCode: "63007") == .failed)
        #expect(TwilioWhatsAppGateway.deliveryStatus("sent", errorCode: nil) == .sent)
    }
}
