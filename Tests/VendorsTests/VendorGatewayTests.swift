import VendorTesting
import LibCrypto
import Foundation
import Gateways
import CurlClient
import HTTPMessages
import Testing
import Vendors
import VerifyCore
import VerifyTesting

let sms = OutboundMessage(
    messageID: "msg_1", to: "+14155552671", display: "+1 415-555-2671", body: "Your code is 123456", code: "123456",
    verificationID: "ver_1", purpose: .signIn, locale: "en", expiresAt: Date().addingTimeInterval(300))

func http(timeout: Double = 2) -> GatewayHTTP {
    GatewayHTTP(client: HTTPClient(), timeout: timeout, connectTimeout: 1)
}

@Suite struct TwilioGatewayTests {
    func gateway(_ vendor: FakeVendor) -> TwilioGateway {
        TwilioGateway(
            configuration: TwilioConfiguration(
                accountSID: "AC123", authToken: "tok", from: "+15005550006", baseURL: vendor.base,
                statusCallbackURL: "https://verify.example.com/v1/webhooks/twilio/status"),
            http: http())
    }

    @Test func requestFormatAndAuth() throws {
        let vendor = try FakeVendor(.reply(201, #"{"sid":"SM0001","status":"queued"}"#, []))
        defer { vendor.stop() }
        #expect(gateway(vendor).send(sms) == .sent(via: "twilio", providerMessageID: "SM0001", status: .sent))
        let request = try #require(vendor.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/2010-04-01/Accounts/AC123/Messages.json")
        #expect(request.headers["Authorization"] == "Basic " + Data("AC123:tok".utf8).base64EncodedString())
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        let fields = formFields(request)
        #expect(fields == ["To": "+14155552671", "From": "+15005550006", "Body": "Your code is 123456",
                           "StatusCallback": "https://verify.example.com/v1/webhooks/twilio/status"])
    }

    @Test func messagingServiceSid() throws {
        let vendor = try FakeVendor(.reply(201, #"{"sid":"SM2"}"#, []))
        defer { vendor.stop() }
        let service = "MG" + String(repeating: "0a", count: 16)
        let g = TwilioGateway(configuration: TwilioConfiguration(accountSID: "AC1", authToken: "t", from: service, baseURL: vendor.base), http: http())
        _ = g.send(sms)
        #expect(formFields(try #require(vendor.requests.first))["MessagingServiceSid"] == service)
        // An alphanumeric sender that merely starts with "MG" is a sender.
        let named = TwilioGateway(configuration: TwilioConfiguration(accountSID: "AC1", authToken: "t", from: "MGMResort", baseURL: vendor.base), http: http())
        _ = named.send(sms)
        #expect(formFields(try #require(vendor.requests.last))["From"] == "MGMResort")
    }

    @Test func errorsAreClassified() throws {
        let vendor = try FakeVendor(.reply(500, "{}", []))
        defer { vendor.stop() }
        let g = gateway(vendor)
        vendor.script([
            .reply(400, #"{"code":21211,"message":"The 'To' number is not valid.","status":400}"#, []),
            .reply(401, #"{"code":20003,"message":"Authenticate","status":401}"#, []),
            .reply(429, #"{"code":20429,"message":"Too Many Requests"}"#, [("Retry-After", "7")]),
            .reply(503, "oops", []),
            .reply(400, #"{"code":21610,"message":"Attempt to send to unsubscribed recipient","status":400}"#, []),
        ])
        guard case .permanent(let reason) = g.send(sms) else { Issue.record("21211 must be permanent"); return }
        #expect(reason.contains("21211"))
        guard case .retryable(let auth, nil) = g.send(sms) else { Issue.record("401 must fail over"); return }
        #expect(auth.contains("20003"))
        guard case .retryable(_, let after) = g.send(sms) else { Issue.record("429 must be retryable"); return }
        #expect(after == 7)
        guard case .retryable = g.send(sms) else { Issue.record("503 must be retryable"); return }
        // STOP to this sender: another gateway (another sender) may deliver; Twilio itself works.
        guard case .unroutable = g.send(sms) else { Issue.record("21610 must be unroutable"); return }
    }

    @Test func timeoutsAndRefusedConnectionsAreRetryable() throws {
        let vendor = try FakeVendor(.sleep(3))
        defer { vendor.stop() }
        let slow = TwilioGateway(configuration: TwilioConfiguration(accountSID: "AC1", authToken: "t", from: "+1", baseURL: vendor.base), http: http(timeout: 0.5))
        let started = Date()
        guard case .retryable = slow.send(sms) else { Issue.record("timeout must be retryable"); return }
        #expect(Date().timeIntervalSince(started) < 2.5)
        let refused = TwilioGateway(
            configuration: TwilioConfiguration(accountSID: "AC1", authToken: "t", from: "+1", baseURL: "http://127.0.0.1:\(closedPort())"),
            http: http())
        guard case .retryable = refused.send(sms) else { Issue.record("refused connection must be retryable"); return }
    }

    /// Twilio's documented example signature.
    @Test func statusCallbackSignature() {
        let fields = [("CallSid", "CA1234567890ABCDE"), ("Caller", "+12349013030"), ("Digits", "1234"), ("From", "+12349013030"), ("To", "+18005551212")]
        let url = "https://mycompany.com/myapp.php?foo=1&bar=2"
        #expect(TwilioSignature.compute(authToken: "12345", url: url, fields: fields) == "0/KCTR6DLpKmkAf8muzZqo1nDgQ=")
        #expect(TwilioSignature.isValid(authToken: "12345", url: url, fields: fields.reversed(), signature: "0/KCTR6DLpKmkAf8muzZqo1nDgQ="))
        #expect(!TwilioSignature.isValid(authToken: "12346", url: url, fields: fields, signature: "0/KCTR6DLpKmkAf8muzZqo1nDgQ="))
    }
}

@Suite struct VonageGatewayTests {
    func gateway(_ vendor: FakeVendor) -> VonageGateway {
        VonageGateway(
            configuration: VonageConfiguration(apiKey: "key", apiSecret: "secret", from: "Acme", baseURL: vendor.base, callbackURL: "https://v.example.com/dlr?token=t"),
            http: http())
    }

    @Test func requestFormatAndSuccess() throws {
        let vendor = try FakeVendor(.reply(200, #"{"message-count":"1","messages":[{"to":"14155552671","message-id":"0A0000001","status":"0"}]}"#, []))
        defer { vendor.stop() }
        #expect(gateway(vendor).send(sms) == .sent(via: "vonage", providerMessageID: "0A0000001", status: .sent))
        let request = try #require(vendor.requests.first)
        #expect(request.path == "/sms/json")
        #expect(formFields(request) == ["api_key": "key", "api_secret": "secret", "from": "Acme", "to": "14155552671",
                                        "text": "Your code is 123456", "client-ref": "msg_1", "callback": "https://v.example.com/dlr?token=t"])
    }

    @Test func unicodeTextIsMarked() throws {
        let vendor = try FakeVendor(.reply(200, #"{"messages":[{"status":"0","message-id":"1"}]}"#, []))
        defer { vendor.stop() }
        var text = sms
        text = OutboundMessage(messageID: "m", to: text.to, display: text.display, body: "Ваш код 123456", code: "123456", verificationID: "v", purpose: .signIn, locale: "ru", expiresAt: text.expiresAt)
        _ = gateway(vendor).send(text)
        #expect(formFields(try #require(vendor.requests.first))["type"] == "unicode")
    }

    /// Vonage's `text` type covers the GSM tables: German, Spanish, £ and € stay single-byte text.
    @Test func gsmTextIsNotMarkedUnicode() throws {
        let vendor = try FakeVendor(.reply(200, #"{"messages":[{"status":"0","message-id":"1"}]}"#, []))
        defer { vendor.stop() }
        let text = OutboundMessage(messageID: "m", to: sms.to, display: sms.display, body: "Ihr Code 123456 ist 5 Minuten gültig. £€ñ",
                       code: "123456", verificationID: "v", purpose: .signIn, locale: "de", expiresAt: sms.expiresAt)
        _ = gateway(vendor).send(text)
        #expect(formFields(try #require(vendor.requests.first))["type"] == nil)
    }

    @Test func statusesAreClassified() throws {
        let vendor = try FakeVendor(.reply(200, #"{"messages":[{"status":"4","error-text":"Bad Credentials"}]}"#, []))
        defer { vendor.stop() }
        vendor.script([.reply(200, #"{"messages":[{"status":"7","error-text":"Number barred"}]}"#, []),
                       .reply(200, #"{"messages":[{"status":"1","error-text":"Throttled"}]}"#, [])])
        guard case .permanent = gateway(vendor).send(sms) else { Issue.record("7 must be permanent"); return }
        guard case .retryable(_, 1) = gateway(vendor).send(sms) else { Issue.record("1 must be retryable soon"); return }
        guard case .retryable(let reason, nil) = gateway(vendor).send(sms) else { Issue.record("4 must fail over"); return }
        #expect(reason.contains("Bad Credentials"))
    }
}

@Suite struct WebhookGatewayTests {
    @Test func signedJSONPerStandardWebhooks() throws {
        let vendor = try FakeVendor(.reply(202, #"{"id":"prov-9"}"#, []))
        defer { vendor.stop() }
        let key = Array("0123456789abcdef0123456789abcdef".utf8)
        let secret = "whsec_" + Data(key).base64EncodedString()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let g = WebhookGateway(configuration: WebhookConfiguration(url: vendor.base + "/sms", secret: secret), http: http(), clock: clock)
        #expect(g.send(sms) == .sent(via: "webhook", providerMessageID: "prov-9", status: .sent))
        let request = try #require(vendor.requests.first)
        #expect(request.headers["webhook-id"] == "msg_1")
        #expect(request.headers["webhook-timestamp"] == "1800000000")
        let expected = "v1," + Data(HMAC.sha256(key: key, data: Array("msg_1.1800000000.".utf8) + request.body)).base64EncodedString()
        #expect(request.headers["webhook-signature"] == expected)
        let json = try JSONValue.parse(request.body)
        #expect(json["to"] == "+14155552671")
        #expect(json["code"] == "123456")
        #expect(json["verification_id"] == "ver_1")
        #expect(json["purpose"] == "sign_in")
        #expect(json["locale"] == "en")
        #expect(json["body"] == "Your code is 123456")
    }

    @Test func contract() throws {
        let vendor = try FakeVendor(.reply(200, "{}", []))
        defer { vendor.stop() }
        let g = WebhookGateway(configuration: WebhookConfiguration(url: vendor.base, secret: "plain-secret"), http: http(), clock: SystemClock())
        vendor.script([.reply(422, "{}", []), .reply(404, "{}", []), .reply(302, "", [("Location", "https://elsewhere.example/")]),
                       .reply(503, "{}", [("Retry-After", "3")])])
        guard case .permanent = g.send(sms) else { Issue.record("422 must be permanent"); return }
        guard case .retryable(_, nil) = g.send(sms) else { Issue.record("404 must fail over"); return }
        // A redirect (http→https, a moved load balancer) is a misconfigured endpoint, not a refusal.
        guard case .retryable(_, nil) = g.send(sms) else { Issue.record("302 must fail over"); return }
        guard case .retryable(_, 3) = g.send(sms) else { Issue.record("503 must be retryable"); return }
        guard case .sent = g.send(sms) else { Issue.record("200 must be sent"); return }
    }
}
