import API
import Foundation
import Testing
import TwilioCompatAPI
import VerifyCore
import VerifyTesting

/// `Channel=sms|whatsapp|call` on `/v2` starts and repeat starts, Twilio's answers and error
/// codes for channels (docs/TWILIO_COMPAT.md).
@Suite struct TwilioCompatChannelTests {
    typealias H = TwilioCompatHarness
    static let mobile = "+15555550123"
    /// A GB fixed line (the fake parser's +4420…).
    static let landline = "+442071234567"

    /// A server with `enabled` channels; `landlines`: SMS and WhatsApp may reach fixed lines too.
    static func harness(_ enabled: Set<Channel> = [.sms, .whatsapp, .call], landlines: Bool = false) -> H {
        var policy = VerificationPolicy()
        policy.channels.enabled = enabled
        if landlines { policy.allowedLineTypes.insert(.fixedLine) }
        return H(policy: policy)
    }

    func attempts(_ reply: H.Reply) -> [String] {
        reply["send_code_attempts"]?.arrayValue?.compactMap { $0["channel"]?.stringValue } ?? []
    }

    @Test func whatsappStartsAndAnswersInTwiliosLowercase() throws {
        let h = Self.harness()
        let service = h.createService()
        let reply = h.send(service, channel: "WhatsApp")
        #expect(reply.status == 201)
        #expect(reply["channel"] == "whatsapp")
        #expect(attempts(reply) == ["whatsapp"])
        #expect(h.t.store.messages.map(\.channel) == [.whatsapp])
        let sid = try #require(reply["sid"]?.stringValue)
        let fetched = h.call("GET", "/v2/Services/\(service)/Verifications/\(sid)")
        #expect(fetched["channel"] == "whatsapp" && attempts(fetched) == ["whatsapp"])
        let check = h.call("POST", "/v2/Services/\(service)/VerificationCheck", form: [("VerificationSid", sid), ("Code", try h.code(sid))])
        #expect(check["status"] == "approved" && check["channel"] == "whatsapp")
    }

    @Test func smsAttemptsAreLowercaseToo() {
        let h = H()
        let reply = h.send(h.createService())
        #expect(reply["channel"] == "sms")
        #expect(attempts(reply) == ["sms"])
    }

    @Test func aCallReachesALandline() throws {
        let h = Self.harness()
        let reply = h.send(h.createService(), to: Self.landline, channel: "call")
        #expect(reply.status == 201)
        #expect(reply["channel"] == "call")
        #expect(attempts(reply) == ["call"])
        #expect(h.t.store.messages.map(\.channel) == [.call])
    }

    @Test func smsOrWhatsAppToALandlineIs60205NamingTheChannel() {
        let h = Self.harness()
        let service = h.createService()
        for (channel, name) in [("sms", "SMS"), ("whatsapp", "WhatsApp")] {
            let reply = h.send(service, to: Self.landline, channel: channel)
            #expect(reply.status == 403 && reply.code == 60205, "\(channel)")
            let message = reply["message"]?.stringValue ?? ""
            #expect(message.hasPrefix("\(name) is not supported by landline phone number"), "\(message)")
            #expect(message.contains("channels that reach it: call"), "\(message)")
        }
        #expect(h.t.store.messages.isEmpty)
    }

    @Test func aChannelNotEnabledIs60223() {
        let h = Self.harness([.sms, .whatsapp])
        let service = h.createService()
        let reply = h.send(service, channel: "call")
        #expect(reply.status == 400 && reply.code == 60223)
        #expect(reply["more_info"] == "https://www.twilio.com/docs/errors/60223")
        #expect(reply["message"]?.stringValue?.hasPrefix("Delivery channel disabled") == true)
        #expect(h.t.store.messages.isEmpty)
    }

    @Test func channelsThisAPIDoesNotSendAre60200() {
        let h = Self.harness()
        let service = h.createService()
        for channel in ["email", "sna", "auto", "voice", "rcs", "", "s m s"] {
            let reply = h.send(service, channel: channel)
            #expect(reply.status == 400 && reply.code == 60200, "\(channel)")
            #expect(reply["message"]?.stringValue?.contains("Channel") == true, "\(channel)")
        }
        #expect(h.send(service, channel: "voice")["message"]?.stringValue?.contains("voice channel is call") == true)
        #expect(h.t.store.messages.isEmpty)
    }

    /// `SkipSmsToLandlines` refuses SMS to a landline (even where the server's policy lets SMS
    /// reach them), never a call.
    @Test func skipSmsToLandlinesAppliesToSMSOnly() {
        let h = Self.harness(landlines: true)
        let strict = h.createService([("FriendlyName", "Acme"), ("SkipSmsToLandlines", "true")])
        let sms = h.send(strict, to: Self.landline, channel: "sms")
        #expect(sms.status == 403 && sms.code == 60205)
        #expect(sms["message"]?.stringValue == "SMS is not supported by landline phone number (channels that reach it: whatsapp, call)")
        let call = h.send(strict, to: Self.landline, channel: "call")
        #expect(call.status == 201 && call["channel"] == "call")
        // A repeat start may not switch that landline's verification to SMS either.
        let switched = h.send(strict, to: Self.landline, channel: "sms")
        #expect(switched.status == 403 && switched.code == 60205)
        #expect(h.t.store.messages.map(\.channel) == [.call])
        // Without the setting, the same server sends that landline an SMS.
        let lenient = h.createService()
        #expect(h.send(lenient, to: Self.landline, channel: "sms").status == 201)
    }

    @Test func aRepeatStartMaySwitchChannel() throws {
        let h = Self.harness()
        let service = h.createService()
        let first = h.send(service, channel: "sms")
        let sid = try #require(first["sid"]?.stringValue)
        let second = h.send(service, channel: "call")
        #expect(second.status == 201 && second["sid"] == .string(sid))
        #expect(second["channel"] == "call")
        let third = h.send(service, channel: "whatsapp")
        #expect(third["sid"] == .string(sid) && third["channel"] == "whatsapp")
        #expect(attempts(third) == ["sms", "call", "whatsapp"])
        #expect(h.t.store.messages.map(\.channel) == [.sms, .call, .whatsapp])
        // Only the newest code works, whatever channel carried it.
        let check = h.call("POST", "/v2/Services/\(service)/VerificationCheck", form: [("To", Self.mobile), ("Code", try h.code(sid))])
        #expect(check["status"] == "approved" && check["channel"] == "whatsapp")
    }

    @Test func aRepeatStartByAChannelThatCannotReachTheNumberSendsNothing() throws {
        let h = Self.harness()
        let service = h.createService()
        let sid = try #require(h.send(service, to: Self.landline, channel: "call")["sid"]?.stringValue)
        let refused = h.send(service, to: Self.landline, channel: "whatsapp")
        #expect(refused.status == 403 && refused.code == 60205)
        #expect(refused["message"]?.stringValue?.hasPrefix("WhatsApp is not supported by landline") == true)
        let still = h.call("GET", "/v2/Services/\(service)/Verifications/\(sid)")
        #expect(still["channel"] == "call" && attempts(still) == ["call"])
    }
}
