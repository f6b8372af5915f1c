import VendorTesting
import LibCrypto
import Foundation
import Gateways
import CurlClient
import HTTPMessages
import Testing
import Vendors
import VerifyCore

/// A WhatsApp message whose SMS body must never reach a vendor: only the code and language do.
let whatsapp = OutboundMessage(
    messageID: "msg_wa", to: "+4915112345678", display: "+49 151 12345678", body: "Dein Code lautet 482913", code: "482913",
    verificationID: "ver_wa", purpose: .signIn, locale: "de-DE", expiresAt: Date().addingTimeInterval(300))

func occurrences(of needle: String, in bytes: [UInt8]) -> Int {
    String(decoding: bytes, as: UTF8.self).components(separatedBy: needle).count - 1
}

@Suite struct MetaWhatsAppGatewayTests {
    func gateway(_ vendor: FakeVendor, timeout: Double = 2) -> MetaWhatsAppGateway {
        MetaWhatsAppGateway(
            configuration: MetaWhatsAppConfiguration(
                phoneNumberID: "1055512345", accessToken: "EAAtoken", templateName: "verification_code",
                language: WhatsAppLanguage(approved: ["en_US", "de", "pt_BR"], fallback: "en_US"),
                apiVersion: "v21.0", baseURL: vendor.base),
            http: http(timeout: timeout))
    }

    static let accepted = #"{"messaging_product":"whatsapp","contacts":[{"input":"+4915112345678","wa_id":"4915112345678"}],"messages":[{"id":"wamid.HBgM","message_status":"accepted"}]}"#

    @Test func requestIsTheAuthenticationTemplate() throws {
        let vendor = try FakeVendor(.reply(200, Self.accepted, []))
        defer { vendor.stop() }
        #expect(gateway(vendor).send(whatsapp) == .sent(via: "meta-whatsapp", providerMessageID: "wamid.HBgM", status: .sent))
        let request = try #require(vendor.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v21.0/1055512345/messages")
        #expect(request.headers["Authorization"] == "Bearer EAAtoken")
        #expect(request.headers["Content-Type"] == "application/json")
        let expected = try JSONValue.parse(Array(#"""
            {"messaging_product":"whatsapp","recipient_type":"individual","to":"4915112345678","type":"template",
             "template":{"name":"verification_code","language":{"code":"de"},"components":[
               {"type":"body","parameters":[{"type":"text","text":"482913"}]},
               {"type":"button","sub_type":"url","index":"0","parameters":[{"type":"text","text":"482913"}]}]}}
            """#.utf8))
        #expect(try JSONValue.parse(request.body) == expected)
        // The code only as the two template parameters; the SMS body never.
        #expect(occurrences(of: "482913", in: request.body) == 2)
        #expect(occurrences(of: "Dein Code", in: request.body) == 0)
        #expect(!request.path.contains("482913"))
        #expect(!request.headers.contains { $0.value.contains("482913") })
    }

    @Test func languageFallsBack() throws {
        let vendor = try FakeVendor(.reply(200, Self.accepted, []))
        defer { vendor.stop() }
        for (locale, expected) in [("ja", "en_US"), ("pt", "pt_BR"), ("en-GB", "en_US"), ("de-AT", "de")] {
            let sms = OutboundMessage(messageID: "m", to: whatsapp.to, display: "", body: "", code: "1", verificationID: "v",
                          purpose: .signIn, locale: locale, expiresAt: whatsapp.expiresAt)
            _ = gateway(vendor).send(sms)
            let json = try JSONValue.parse(try #require(vendor.requests.last).body)
            #expect(json["template"]?["language"]?["code"]?.stringValue == expected, "\(locale)")
        }
    }

    func error(_ code: Int, _ message: String, details: String = "") -> String {
        #"{"error":{"message":"\#(message)","type":"OAuthException","code":\#(code),"error_data":{"messaging_product":"whatsapp","details":"\#(details)"},"fbtrace_id":"Az8"}}"#
    }

    @Test func errorsAreClassified() throws {
        let vendor = try FakeVendor(.reply(500, "{}", []))
        defer { vendor.stop() }
        let g = gateway(vendor)
        vendor.script([
            .reply(400, error(131026, "Message undeliverable"), []),
            .reply(400, error(131047, "Re-engagement message"), []),
            .reply(400, error(131021, "Recipient cannot be sender"), []),
            .reply(401, error(190, "Error validating access token: Session has expired"), []),
            .reply(400, error(132001, "Template name does not exist in the translation", details: "template name (verification_code) does not exist in de"), []),
            .reply(429, error(130429, "Rate limit hit"), [("Retry-After", "9")]),
            .reply(400, error(131056, "(Business Account, Consumer Account) pair rate limit hit"), []),
            .reply(503, error(131016, "Service unavailable"), []),
            .reply(200, #"{"messages":[]}"#, []),
        ])
        guard case .unroutable(let undeliverable) = g.send(whatsapp) else { Issue.record("131026 must be unroutable"); return }
        #expect(undeliverable.contains("131026"))
        guard case .unroutable = g.send(whatsapp) else { Issue.record("131047 must be unroutable"); return }
        guard case .permanent = g.send(whatsapp) else { Issue.record("131021 must be permanent"); return }
        guard case .retryable(let auth, nil) = g.send(whatsapp) else { Issue.record("190 must fail over"); return }
        #expect(auth.contains("access token") && auth.contains("190"))
        #expect(!auth.contains("EAAtoken"))
        guard case .retryable(let template, nil) = g.send(whatsapp) else { Issue.record("132001 must fail over"); return }
        #expect(template.contains("verification_code") && template.contains("132001"))
        guard case .retryable(_, 9) = g.send(whatsapp) else { Issue.record("130429 must honour Retry-After"); return }
        guard case .retryable(let pair, nil) = g.send(whatsapp) else { Issue.record("131056 must be retryable"); return }
        #expect(pair.contains("rate limited"))
        guard case .retryable = g.send(whatsapp) else { Issue.record("503 must be retryable"); return }
        guard case .retryable = g.send(whatsapp) else { Issue.record("2xx without an id must be retryable"); return }
    }

    @Test func timeoutsAndRefusedConnectionsAreRetryable() throws {
        let vendor = try FakeVendor(.sleep(3))
        defer { vendor.stop() }
        let started = Date()
        guard case .retryable = gateway(vendor, timeout: 0.5).send(whatsapp) else { Issue.record("timeout must be retryable"); return }
        #expect(Date().timeIntervalSince(started) < 2.5)
        let refused = MetaWhatsAppGateway(
            configuration: MetaWhatsAppConfiguration(phoneNumberID: "1", accessToken: "t", templateName: "x", baseURL: "http://127.0.0.1:\(closedPort())"),
            http: http())
        guard case .retryable = refused.send(whatsapp) else { Issue.record("refused connection must be retryable"); return }
    }
}

@Suite struct MetaWebhookTests {
    let body = Array(#"{"object":"whatsapp_business_account","entry":[{"id":"WABA","changes":[{"field":"messages","value":{"messaging_product":"whatsapp","statuses":[{"id":"wamid.A","status":"delivered","timestamp":"1700000000","recipient_id":"4915112345678"},{"id":"wamid.B","status":"read"},{"id":"wamid.C","status":"failed","errors":[{"code":131026,"title":"Message undeliverable","error_data":{"details":"Message Undeliverable."}}]},{"id":"wamid.D","status":"failed","errors":[{"code":131000,"title":"Something went wrong"}]},{"id":"wamid.E","status":"sent"},{"id":"wamid.F","status":"deleted"}]}}]}]}"#.utf8)

    @Test func signatureVectors() {
        let secret = "0123456789abcdef0123456789abcdef"
        let expected = "sha256=" + HMAC.sha256(key: Array(secret.utf8), data: body).map { String(format: "%02x", $0) }.joined()
        #expect(MetaWebhookSignature.compute(body: body, appSecret: secret) == expected)
        #expect(MetaWebhookSignature.verify(body: body, header: expected, appSecret: secret))
        #expect(MetaWebhookSignature.verify(body: body, header: expected.uppercased().replacingOccurrences(of: "SHA256=", with: "sha256="), appSecret: secret))
        #expect(!MetaWebhookSignature.verify(body: body + [0x20], header: expected, appSecret: secret))
        #expect(!MetaWebhookSignature.verify(body: body, header: expected, appSecret: secret + "x"))
        #expect(!MetaWebhookSignature.verify(body: body, header: String(expected.dropFirst(7)), appSecret: secret))
        #expect(!MetaWebhookSignature.verify(body: body, header: "sha1=" + String(expected.dropFirst(7)), appSecret: secret))
        #expect(!MetaWebhookSignature.verify(body: body, header: nil, appSecret: secret))
        #expect(!MetaWebhookSignature.verify(body: body, header: MetaWebhookSignature.compute(body: body, appSecret: ""), appSecret: ""))
        // A known vector: HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog").
        #expect(MetaWebhookSignature.compute(body: Array("The quick brown fox jumps over the lazy dog".utf8), appSecret: "key")
                == "sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8")
    }

    @Test func subscriptionChallenge() {
        #expect(MetaWebhookSignature.challenge(mode: "subscribe", token: "vt", challenge: "1158201444", verifyToken: "vt") == "1158201444")
        #expect(MetaWebhookSignature.challenge(mode: "subscribe", token: "nope", challenge: "1", verifyToken: "vt") == nil)
        #expect(MetaWebhookSignature.challenge(mode: "unsubscribe", token: "vt", challenge: "1", verifyToken: "vt") == nil)
        #expect(MetaWebhookSignature.challenge(mode: "subscribe", token: "", challenge: "1", verifyToken: "") == nil)
    }

    @Test func statusesAreMapped() {
        let statuses = MetaWhatsAppStatus.parse(body)
        #expect(statuses.map(\.messageID) == ["wamid.A", "wamid.B", "wamid.C", "wamid.D", "wamid.E"])
        #expect(statuses.map(\.status) == [.delivered, .delivered, .undelivered, .failed, .sent])
        #expect(statuses[2].errorCode == 131026)
        #expect(statuses[2].error == "code 131026: Message undeliverable: Message Undeliverable.")
        #expect(MetaWhatsAppStatus.parse(Array("not json".utf8)).isEmpty)
        #expect(MetaWhatsAppStatus.deliveryStatus("warning") == nil)
    }
}
