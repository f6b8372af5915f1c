import Foundation
import Testing
@testable import PhoneVerifyClient

/// What a newer server may send: states and channels this client does not know decode instead of
/// failing the call; the delivery names the channel a message actually went by.
@Suite struct ForwardCompatibilityTests {
    static func detail(status: String = "pending", channel: String = "whatsapp", delivery: String) -> String {
        """
        {"id": "ver_0a1b", "status": "\(status)", "phone_number": "+14155552671", "channel": "\(channel)",
         "expires_at": "2026-11-30T12:05:00Z", "resend_available_at": "2026-11-30T12:00:30Z",
         "attempts_remaining": 5, "sends_remaining": 3, "code_length": 6, "created_at": "2026-11-30T12:00:00Z",
         "delivery": \(delivery)}
        """
    }

    static func delivery(status: String, channel: String) -> String {
        #"{"status": "\#(status)", "channel": "\#(channel)", "gateway": "twilio", "attempts": 1, "last_error": null, "updated_at": "2026-11-30T12:00:40Z"}"#
    }

    @Test func theDeliverySaysWhichChannelTheCodeWentBy() async throws {
        let stub = StubServer([.json(200, Self.detail(delivery: Self.delivery(status: "sent", channel: "sms")))])
        let verification = try await stub.client().status(verificationID: "ver_0a1b")
        #expect(verification.channel == .whatsapp)
        #expect(verification.delivery?.channel == .sms)
        #expect(verification.delivery?.status == .sent)
        #expect(verification.fallbackChannel == .sms)  // "we sent an SMS instead"
    }

    @Test func noFallbackWhenTheChannelIsTheOneAskedFor() async throws {
        let stub = StubServer([.json(200, Self.detail(channel: "sms", delivery: Self.delivery(status: "delivered", channel: "sms")))])
        let verification = try await stub.client().status(verificationID: "ver_0a1b")
        #expect(verification.fallbackChannel == nil)
        #expect(verification.delivery?.status == .delivered)
    }

    @Test func unknownStatesAndChannelsDecodeWithTheirText() async throws {
        let stub = StubServer([.json(200, Self.detail(
            status: "on_hold", channel: "rcs", delivery: Self.delivery(status: "read", channel: "carrier_pigeon")))])
        let verification = try await stub.client().status(verificationID: "ver_0a1b")
        #expect(verification.status == .unknown("on_hold"))
        #expect(verification.channel == .unknown("rcs"))
        #expect(verification.delivery?.status == .unknown("read"))
        #expect(verification.delivery?.channel == .unknown("carrier_pigeon"))
        #expect(verification.status.rawValue == "on_hold" && verification.channel.rawValue == "rcs")
        // resume leaves a state it does not know to the app rather than calling it over.
        let resumed = try await stub.client().resume(verification.pending)
        #expect(resumed.status == .unknown("on_hold"))
    }

    @Test func aDeliveryFromAServerBeforeChannelsIsAnSMS() async throws {
        let old = #"{"status": "sent", "gateway": "twilio", "attempts": 1, "last_error": null, "updated_at": "2026-11-30T12:00:40Z"}"#
        let stub = StubServer([.json(200, Self.detail(channel: "sms", delivery: old))])
        #expect(try await stub.client().status(verificationID: "ver_0a1b").delivery?.channel == .sms)
    }

    @Test func knownValuesRoundTripThroughTheirRawText() throws {
        func isUnknown<T>(_ value: T) -> Bool { String(describing: value).hasPrefix("unknown(") }
        for status in ["pending", "approved", "expired", "canceled", "max_attempts_reached"] {
            #expect(VerificationStatus(rawValue: status).rawValue == status && !isUnknown(VerificationStatus(rawValue: status)))
        }
        for channel in ["sms", "whatsapp", "call", "auto"] {
            #expect(Channel(rawValue: channel).rawValue == channel && !isUnknown(Channel(rawValue: channel)))
        }
        for status in ["queued", "sent", "delivered", "failed", "undelivered"] {
            #expect(DeliveryStatus(rawValue: status).rawValue == status && !isUnknown(DeliveryStatus(rawValue: status)))
        }
        #expect(isUnknown(Channel(rawValue: "rcs")))
        // Equality and hashing agree: both go by the text.
        #expect(Channel.unknown("sms") == .sms && Set([Channel.sms, .unknown("sms"), .unknown("rcs")]).count == 2)
        #expect(Set([DeliveryStatus.sent, .unknown("sent")]).count == 1 && VerificationStatus.unknown("expired") == .expired)
        guard case .maxAttemptsReached = VerificationStatus(rawValue: "max_attempts_reached") else {
            Issue.record("max_attempts_reached is not .maxAttemptsReached")
            return
        }
    }
}
