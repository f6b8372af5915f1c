@testable import App
import Foundation
import Gateways
import HTTPMessages
import HTTPServer
import LibCrypto
import Telemetry
import Testing
import VerifyCore

/// `GatewayFactory.make` from settings to requests: each channel's chain reaches its vendor (a
/// fake on 127.0.0.1) with the configured credentials and the status callback URL its route
/// serves, and the code never travels in a URL.
@Suite(.serialized) struct ChannelWiringTests {
    /// A vendor on 127.0.0.1 answering every request with `body`, recording what it got.
    final class Vendor: HTTPResponder, @unchecked Sendable {
        private let lock = NSLock()  // guards `recorded`
        private var recorded: [HTTPRequest] = []
        let body: String
        var server: HTTPServer!

        init(_ body: String) throws {
            self.body = body
            server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadPoolSize: 2), responder: self)
            try server.start()
        }

        var base: String { "http://127.0.0.1:\(server.port)" }
        var requests: [HTTPRequest] { lock.withLock { recorded } }

        func respond(to request: HTTPRequest) -> HTTPResponse {
            lock.withLock { recorded.append(request) }
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }
    }

    static let publicURL = "https://verify.example.com"

    func router(_ environment: [String: String], console: (@Sendable (String) -> Void)? = nil) throws -> ChannelRouter {
        let c = try Configuration.load(environment: environment)
        return GatewayFactory.make(
            c, publicURL: Self.publicURL, clock: SystemClock(), logger: Logger(handler: CapturingLogHandler()), consoleOutput: console,
            events: NoEvents())
    }

    func message(_ channel: Channel, code: String = "482913", locale: String? = nil) -> OutboundMessage {
        OutboundMessage(messageID: "msg_1", to: "+14155552671", display: "+1 415-555-2671", body: "Your code is \(code)", code: code,
            verificationID: "ver_1", purpose: .signIn, locale: locale, expiresAt: Date().addingTimeInterval(300), channel: channel)
    }

    func form(_ request: HTTPRequest) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: request.body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    @Test func eachChannelHasItsOwnChainAndTheConsoleNamesIt() throws {
        let lines = LineLog()
        let router = try router(["PHONE_VERIFY_CHANNELS": "sms,whatsapp,call"], console: { lines.append($0) })
        #expect(router.channels == [.sms, .whatsapp, .call])
        for channel in [Channel.sms, .whatsapp, .call] {
            #expect(router.send(message(channel)) == .sent(via: "console", providerMessageID: nil, status: .sent))
        }
        #expect(lines.all.map { String($0.prefix(while: { $0 != " " })) } == ["SMS", "WhatsApp", "Call"])
        #expect(try self.router([:]).channels == [.sms])
    }

    @Test func twilioWhatsAppAndVoiceUseTheSignedStatusRoute() throws {
        let twilio = try Vendor(#"{"sid":"MM0001","status":"queued"}"#)
        defer { twilio.server.shutdown(graceSeconds: 1) }
        let router = try router([
            "PHONE_VERIFY_CHANNELS": "sms,whatsapp,call", "PHONE_VERIFY_WHATSAPP_GATEWAYS": "twilio", "PHONE_VERIFY_VOICE_GATEWAYS": "twilio",
            "PHONE_VERIFY_TWILIO_BASE_URL": twilio.base, "PHONE_VERIFY_TWILIO_ACCOUNT_SID": "AC0001", "PHONE_VERIFY_TWILIO_AUTH_TOKEN": "tok",
            "PHONE_VERIFY_TWILIO_WA_FROM": "+14155238886", "PHONE_VERIFY_TWILIO_WA_CONTENT_SID": "HX01", "PHONE_VERIFY_TWILIO_VOICE_FROM": "+15005550006",
        ])
        #expect(router.send(message(.whatsapp)) == .sent(via: "twilio-whatsapp", providerMessageID: "MM0001", status: .sent))
        #expect(router.send(message(.call)) == .sent(via: "twilio-voice", providerMessageID: "MM0001", status: .sent))
        let (whatsapp, call) = (twilio.requests[0], twilio.requests[1])
        #expect(whatsapp.path == "/2010-04-01/Accounts/AC0001/Messages.json" && call.path == "/2010-04-01/Accounts/AC0001/Calls.json")
        #expect(form(whatsapp)["ContentSid"] == "HX01" && form(whatsapp)["ContentVariables"] == #"{"1":"482913"}"#)
        #expect(form(call)["From"] == "+15005550006" && form(call)["Twiml"]?.contains("4, 8, 2, 9, 1, 3") == true)
        for request in [whatsapp, call] {
            #expect(form(request)["StatusCallback"] == Self.publicURL + "/v1/webhooks/twilio/status")
            #expect(!request.path.contains("482913") && !request.query.values.contains { $0.contains("482913") })
        }
    }

    @Test func metaAndVonageReachTheirBaseURLs() throws {
        let meta = try Vendor(#"{"messages":[{"id":"wamid.1"}]}"#)
        let vonage = try Vendor(#"{"message_uuid":"u-1","uuid":"call-1"}"#)
        defer { meta.server.shutdown(graceSeconds: 1); vonage.server.shutdown(graceSeconds: 1) }
        let key = try SigningKey.generate(.rs256)
        let router = try router([
            "PHONE_VERIFY_CHANNELS": "whatsapp,call", "PHONE_VERIFY_WHATSAPP_GATEWAYS": "meta,vonage", "PHONE_VERIFY_VOICE_GATEWAYS": "vonage",
            "PHONE_VERIFY_META_WA_BASE_URL": meta.base, "PHONE_VERIFY_META_WA_PHONE_NUMBER_ID": "1065", "PHONE_VERIFY_META_WA_ACCESS_TOKEN": "EAAG",
            "PHONE_VERIFY_META_WA_TEMPLATE": "verification_code", "PHONE_VERIFY_META_WA_LANGUAGES": "en_US,de",
            "PHONE_VERIFY_VONAGE_MESSAGES_BASE_URL": vonage.base, "PHONE_VERIFY_VONAGE_VOICE_BASE_URL": vonage.base,
            "PHONE_VERIFY_VONAGE_API_KEY": "k", "PHONE_VERIFY_VONAGE_API_SECRET": "s", "PHONE_VERIFY_VONAGE_WA_FROM": "+447700900000",
            "PHONE_VERIFY_VONAGE_WA_TEMPLATE": "verification_code", "PHONE_VERIFY_VONAGE_APPLICATION_ID": "app-1",
            "PHONE_VERIFY_VONAGE_PRIVATE_KEY": try key.privateKeyPEM(), "PHONE_VERIFY_VONAGE_VOICE_FROM": "+15005550007",
            "PHONE_VERIFY_VONAGE_CALLBACK_TOKEN": "cb-token",
        ])
        #expect(router.send(message(.whatsapp, locale: "de-AT")) == .sent(via: "meta-whatsapp", providerMessageID: "wamid.1", status: .sent))
        let sent = try #require(meta.requests.first)
        #expect(sent.path == "/v21.0/1065/messages" && sent.headers["Authorization"] == "Bearer EAAG")
        let payload = try JSONValue.parse(sent.body)
        #expect(payload["template"]?["language"]?["code"]?.stringValue == "de")
        #expect(router.send(message(.call)) == .sent(via: "vonage-voice", providerMessageID: "call-1", status: .sent))
        let call = try JSONValue.parse(try #require(vonage.requests.last).body)
        // No signature secret: the callback token rides in the event URL (never the code).
        #expect(call["event_url"]?.arrayValue?.first?.stringValue == Self.publicURL + "/v1/webhooks/vonage/voice?token=cb-token")
    }

    @Test func theWebhookPayloadNamesTheChannel() throws {
        let hook = try Vendor(#"{"id":"h-1"}"#)
        defer { hook.server.shutdown(graceSeconds: 1) }
        let router = try router([
            "PHONE_VERIFY_CHANNELS": "sms,call", "PHONE_VERIFY_GATEWAYS": "webhook", "PHONE_VERIFY_VOICE_GATEWAYS": "webhook",
            "PHONE_VERIFY_WEBHOOK_URL": hook.base + "/send", "PHONE_VERIFY_WEBHOOK_SECRET": "whsec_" + Data(repeating: 3, count: 32).base64EncodedString(),
        ])
        #expect(router.send(message(.call)) == .sent(via: "webhook", providerMessageID: "h-1", status: .sent))
        #expect(router.send(message(.sms)) == .sent(via: "webhook", providerMessageID: "h-1", status: .sent))
        let channels = try hook.requests.map { try JSONValue.parse($0.body)["channel"]?.stringValue }
        #expect(channels == ["call", "sms"])
    }
}

/// Console lines, in order.
final class LineLog: @unchecked Sendable {
    private let lock = NSLock()  // guards `lines`
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
