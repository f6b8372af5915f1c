import VendorTesting
import Foundation
import Gateways
import HTTPMessages
import LibCrypto
import Testing
import Vendors
import VerifyCore
import VerifyTesting

/// The form fields of a request in order, repeated names kept.
func orderedFormFields(_ request: HTTPRequest) -> [(String, String)] {
    String(decoding: request.body, as: UTF8.self).split(separator: "&").map { pair in
        let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
        return (parts[0], parts.count > 1 ? parts[1] : "")
    }
}

func voiceSMS(locale: String?, code: String = "123456") -> OutboundMessage {
    OutboundMessage(messageID: "msg_v", to: "+14155552671", display: "+1 415-555-2671", body: "Your code is \(code)", code: code,
        verificationID: "ver_v", purpose: .signIn, locale: locale, expiresAt: Date().addingTimeInterval(300))
}

@Suite struct TwilioVoiceGatewayTests {
    func gateway(_ vendor: FakeVendor, app: String = "Acme", callback: String? = "https://verify.example.com/v1/webhooks/twilio/voice") -> TwilioVoiceGateway {
        TwilioVoiceGateway(
            configuration: TwilioVoiceConfiguration(
                accountSID: "AC123", authToken: "tok", from: "+15005550006", appName: app, baseURL: vendor.base, statusCallbackURL: callback),
            http: http())
    }

    @Test func requestFormatAuthAndInlineTwiml() throws {
        let vendor = try FakeVendor(.reply(201, #"{"sid":"CA0001","status":"queued"}"#, []))
        defer { vendor.stop() }
        #expect(gateway(vendor, app: "Tom & Jerry").send(voiceSMS(locale: "es-MX"))
            == .sent(via: "twilio-voice", providerMessageID: "CA0001", status: .sent))
        let request = try #require(vendor.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/2010-04-01/Accounts/AC123/Calls.json")
        #expect(request.query.isEmpty)
        #expect(request.headers["Authorization"] == "Basic " + Data("AC123:tok".utf8).base64EncodedString())
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        let fields = orderedFormFields(request)
        #expect(fields.map(\.0) == ["To", "From", "Twiml", "StatusCallback", "StatusCallbackMethod", "StatusCallbackEvent", "StatusCallbackEvent"])
        #expect(fields[0].1 == "+14155552671")
        #expect(fields[1].1 == "+15005550006")
        #expect(fields[3].1 == "https://verify.example.com/v1/webhooks/twilio/voice")
        #expect(fields[4].1 == "POST")
        #expect(fields[5].1 == "answered" && fields[6].1 == "completed")
        let say = #"<Say language="es-MX" voice="Polly.Mia">"#
        #expect(fields[2].1 == "<Response>"
            + say + "Tu código de verificación de Tom &amp; Jerry es: 1, 2, 3, 4, 5, 6.</Say><Pause length=\"1\"/>"
            + say + "Repito, tu código es: 1, 2, 3, 4, 5, 6.</Say><Pause length=\"1\"/>"
            + say + "No compartas este código con nadie. Adiós.</Say></Response>")
        // The code is said digit by digit, twice, and is nowhere else in the request.
        #expect(fields[2].1.components(separatedBy: "1, 2, 3, 4, 5, 6").count == 3)
        #expect(!String(decoding: request.body, as: UTF8.self).contains("123456"))
    }

    @Test func withoutCallbackAndWithRingTimeout() throws {
        let vendor = try FakeVendor(.reply(201, #"{"sid":"CA2"}"#, []))
        defer { vendor.stop() }
        let g = TwilioVoiceGateway(
            configuration: TwilioVoiceConfiguration(
                accountSID: "AC1", authToken: "t", from: "+15005550006", appName: "Acme", baseURL: vendor.base, voices: [:],
                ringTimeoutSeconds: 25),
            http: http())
        _ = g.send(voiceSMS(locale: "ja"))
        let fields = orderedFormFields(try #require(vendor.requests.first))
        #expect(fields.map(\.0) == ["To", "From", "Twiml", "Timeout"])
        #expect(fields[3].1 == "25")
        // No voice configured for the locale: Twilio's default voice; Japanese falls back to English.
        #expect(fields[2].1.hasPrefix(#"<Response><Say language="en-US">Your Acme verification code is: 1, 2, 3"#))
    }

    @Test func errorsAreClassified() throws {
        let vendor = try FakeVendor(.reply(500, "{}", []))
        defer { vendor.stop() }
        let g = gateway(vendor)
        vendor.script([
            .reply(400, #"{"code":21217,"message":"Phone number does not appear to be valid","status":400}"#, []),
            .reply(400, #"{"code":13224,"message":"Twilio does not support calling this number or the number is invalid"}"#, []),
            .reply(400, #"{"code":21215,"message":"Account not authorized to call +14155552671"}"#, []),
            .reply(400, #"{"code":21216,"message":"Call blocked by Twilio"}"#, []),
            .reply(400, #"{"code":21210,"message":"Caller phone number not verified"}"#, []),
            .reply(401, #"{"code":20003,"message":"Authenticate"}"#, []),
            .reply(429, #"{"code":20429,"message":"Too Many Requests"}"#, [("Retry-After", "4")]),
            .reply(503, "<html>down</html>", []),
            .reply(201, #"{"status":"queued"}"#, []),
        ])
        guard case .permanent(let invalid) = g.send(voiceSMS(locale: "en")) else { Issue.record("21217 must be permanent"); return }
        #expect(invalid.contains("21217"))
        guard case .permanent = g.send(voiceSMS(locale: "en")) else { Issue.record("13224 must be permanent"); return }
        guard case .unroutable(let geo) = g.send(voiceSMS(locale: "en")) else { Issue.record("21215 must be unroutable"); return }
        #expect(geo.contains("21215"))
        guard case .unroutable = g.send(voiceSMS(locale: "en")) else { Issue.record("21216 must be unroutable"); return }
        guard case .retryable(let callerID, nil) = g.send(voiceSMS(locale: "en")) else { Issue.record("21210 must fail over"); return }
        #expect(callerID.contains("21210"))
        guard case .retryable(_, nil) = g.send(voiceSMS(locale: "en")) else { Issue.record("401 must fail over"); return }
        guard case .retryable(_, 4) = g.send(voiceSMS(locale: "en")) else { Issue.record("429 must be retryable"); return }
        guard case .retryable(let down, nil) = g.send(voiceSMS(locale: "en")) else { Issue.record("503 must be retryable"); return }
        #expect(!down.contains("html"))
        guard case .retryable = g.send(voiceSMS(locale: "en")) else { Issue.record("no sid must be retryable"); return }
    }

    /// A vendor error that quotes the request must not carry the code into logs or rows.
    @Test func errorReasonsNeverCarryTheCode() throws {
        let vendor = try FakeVendor(.reply(400, #"{"code":12100,"message":"Document parse failure: <Response><Say>1, 2, 3, 4, 5, 6</Say>"}"#, []))
        defer { vendor.stop() }
        vendor.script([.reply(400, #"{"code":11111,"message":"bad value 123456 and 1, 2, 3, 4, 5, 6"}"#, [])])
        guard case .retryable(let quoted, _) = gateway(vendor).send(voiceSMS(locale: "en")) else { Issue.record("must fail over"); return }
        #expect(!quoted.contains("123456") && !quoted.contains("1, 2, 3"))
        guard case .retryable(let twiml, _) = gateway(vendor).send(voiceSMS(locale: "en")) else { Issue.record("must fail over"); return }
        #expect(!twiml.contains("1, 2, 3") && twiml.contains("12100"))
    }

    /// Twilio's text may echo the form-encoded request: only its error code is kept.
    @Test func onlyTwiliosErrorCodeIsKept() throws {
        let echo = "Invalid Twiml=%3CResponse%3E%3CSay+language%3D%22en-US%22%3EYour+Acme+code+is+1%2C+2%2C+3%2C+4%2C+5%2C+6."
        let vendor = try FakeVendor(.reply(400, #"{"code":11111,"message":""# + echo + #""}"#, []))
        defer { vendor.stop() }
        guard case .retryable(let reason, _) = gateway(vendor).send(voiceSMS(locale: "en")) else { Issue.record("must fail over"); return }
        #expect(reason == "twilio-voice: HTTP 400 code 11111")
    }

    @Test func timeoutsAndRefusedConnectionsAreRetryable() throws {
        let refused = TwilioVoiceGateway(
            configuration: TwilioVoiceConfiguration(accountSID: "AC1", authToken: "t", from: "+1", appName: "A", baseURL: "http://127.0.0.1:\(closedPort())"),
            http: http())
        guard case .retryable = refused.send(voiceSMS(locale: "en")) else { Issue.record("refused connection must be retryable"); return }
        let vendor = try FakeVendor(.sleep(3))
        defer { vendor.stop() }
        let slow = TwilioVoiceGateway(
            configuration: TwilioVoiceConfiguration(accountSID: "AC1", authToken: "t", from: "+1", appName: "A", baseURL: vendor.base),
            http: http(timeout: 0.5))
        guard case .retryable = slow.send(voiceSMS(locale: "en")) else { Issue.record("timeout must be retryable"); return }
    }
}
