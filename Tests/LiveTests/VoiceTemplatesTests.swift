@testable import App
import Foundation
import Gateways
import Telemetry
import Testing
import VerifyCore

/// `PHONE_VERIFY_VOICE_TEMPLATES_FILE`: operators' lines for voice calls, per language, checked
/// at start-up and said by the voice gateways (docs/MESSAGES.md, "Voice calls").
@Suite(.serialized) struct VoiceTemplatesTests {
    func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "pv-voice-\(UUID().uuidString).json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let italian = #"{"it": {"intro": "Il tuo codice {app} è:", "again": "Ripeto, il tuo codice è:", "closing": "Non condividerlo. Arrivederci.", "speech_locale": "it-IT"}, "EN": {"intro": "Your {app} passcode is:", "again": "Again:", "closing": "Bye."}}"#

    @Test func linesReplaceOrAddLanguages() {
        let parsed = VoiceLines.overrides(json: Data(Self.italian.utf8))
        #expect(parsed.problems.isEmpty)
        let composer = VoiceScriptComposer(appName: "Acme", lines: VoiceScriptComposer.builtIn.merging(parsed.lines) { $1 })
        let it = composer.script(code: "123", locale: "it-IT")
        #expect(it.parts == ["Il tuo codice Acme è: 1, 2, 3.", "Ripeto, il tuo codice è: 1, 2, 3.", "Non condividerlo. Arrivederci."])
        #expect(it.speechLocale == "it-IT")
        #expect(composer.script(code: "1", locale: "it").speechLocale == "it-IT")
        #expect(composer.script(code: "123", locale: "en-GB").parts.first == "Your Acme passcode is: 1, 2, 3.")
        #expect(composer.script(code: "123", locale: "de").parts.first == "Ihr Bestätigungscode für Acme lautet: 1, 2, 3.")
    }

    @Test(arguments: [
        (#"["it"]"#, "JSON object"),
        (#"{"italian": {"intro": "a", "again": "b", "closing": "c"}}"#, "not a language subtag"),
        (#"{"it": {"intro": "a", "again": "b"}}"#, "exactly the strings"),
        (#"{"it": {"intro": "a", "again": "b", "closing": "c", "extra": "d"}}"#, "exactly the strings"),
        (#"{"it": {"intro": "Code {code}", "again": "b", "closing": "c"}}"#, "must not contain {code}"),
        (#"{"it": {"intro": " ", "again": "b", "closing": "c"}}"#, "empty"),
        (#"{"it": {"intro": "a\u0007", "again": "b", "closing": "c"}}"#, "control characters"),
        (#"{"it": {"intro": "a", "again": "b", "closing": "c", "speech_locale": "italian"}}"#, "speech_locale"),
    ])
    func badFilesAreRefusedWithAReason(text: String, reason: String) {
        let parsed = VoiceLines.overrides(json: Data(text.utf8))
        #expect(parsed.lines.isEmpty)
        #expect(parsed.problems.count == 1)
        #expect(parsed.problems.first?.contains(reason) == true, "\(parsed.problems)")
        let long = #"{"it": {"intro": ""# + String(repeating: "a", count: 201) + #"", "again": "b", "closing": "c"}}"#
        #expect(VoiceLines.overrides(json: Data(long.utf8)).problems.first?.contains("longer than 200") == true)
    }

    @Test func theSettingIsCheckedAtStartUp() throws {
        let bad = try file(#"{"it": {"intro": "{code}", "again": "b", "closing": "c"}}"#)
        #expect(throws: (any Error).self) { try Configuration.load(environment: ["PHONE_VERIFY_VOICE_TEMPLATES_FILE": bad]) }
        #expect(throws: (any Error).self) { try Configuration.load(environment: ["PHONE_VERIFY_VOICE_TEMPLATES_FILE": "/nonexistent/voice.json"]) }
        let good = try file(Self.italian)
        let c = try Configuration.load(environment: ["PHONE_VERIFY_VOICE_TEMPLATES_FILE": good])
        #expect(c.voiceLines["it"]?.closing == "Non condividerlo. Arrivederci.")
        #expect(c.voiceLines["de"] == VoiceScriptComposer.builtIn["de"])
    }

    @Test func theTwilioCallSaysTheOperatorsLines() throws {
        let twilio = try ChannelWiringTests.Vendor(#"{"sid":"CA0001","status":"queued"}"#)
        defer { twilio.server.shutdown(graceSeconds: 1) }
        let c = try Configuration.load(environment: [
            "PHONE_VERIFY_CHANNELS": "sms,call", "PHONE_VERIFY_VOICE_GATEWAYS": "twilio", "PHONE_VERIFY_APP_NAME": "Acme",
            "PHONE_VERIFY_TWILIO_BASE_URL": twilio.base, "PHONE_VERIFY_TWILIO_ACCOUNT_SID": "AC0001", "PHONE_VERIFY_TWILIO_AUTH_TOKEN": "tok",
            "PHONE_VERIFY_TWILIO_VOICE_FROM": "+15005550006", "PHONE_VERIFY_VOICE_TEMPLATES_FILE": try file(Self.italian),
        ])
        let router = GatewayFactory.make(
            c, publicURL: "https://verify.example.com", clock: SystemClock(), logger: Logger(handler: CapturingLogHandler()),
            consoleOutput: nil, events: NoEvents())
        let sms = OutboundMessage(messageID: "msg_1", to: "+14155552671", display: "+1 415-555-2671", body: "x", code: "482913",
                      verificationID: "ver_1", purpose: .signIn, locale: "it", expiresAt: Date().addingTimeInterval(300), channel: .call)
        #expect(router.send(sms) == .sent(via: "twilio-voice", providerMessageID: "CA0001", status: .sent))
        let twiml = ChannelWiringTests().form(try #require(twilio.requests.first))["Twiml"] ?? ""
        #expect(twiml.contains("Il tuo codice Acme è: 4, 8, 2, 9, 1, 3."))
        #expect(twiml.contains("Non condividerlo. Arrivederci."))
        #expect(twiml.contains(#"language="it-IT""#))
    }
}
