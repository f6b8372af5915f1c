import App
import Foundation
import Testing
import VerifyCore

/// PHONE_VERIFY_EVENTS_*: off unless a URL is set, and a mistake stops start-up with its name.
@Suite struct EventsConfigurationTests {
    static let secret = "whsec_" + Data("events-key-0123456789abcdef-0123".utf8).base64EncodedString()

    @Test func offByDefaultAndReadWhenAURLIsSet() throws {
        #expect(try Configuration.load(environment: [:]).events == nil)
        let c = try Configuration.load(environment: [
            "PHONE_VERIFY_EVENTS_URL": "http://127.0.0.1:9000/events", "PHONE_VERIFY_EVENTS_SECRET": Self.secret,
            "PHONE_VERIFY_EVENTS": "verification.approved, mfa.factor.deleted", "PHONE_VERIFY_EVENTS_TIMEOUT": "3",
        ])
        let events = try #require(c.events)
        #expect(events.url == "http://127.0.0.1:9000/events" && events.secret == Self.secret)
        #expect(events.types == [.verificationApproved, .factorDeleted] && events.timeout == 3)
        #expect(try Configuration.load(environment: [
            "PHONE_VERIFY_EVENTS_URL": "https://auth.example.com/events", "PHONE_VERIFY_EVENTS_SECRET": Self.secret,
        ]).events?.types == Set(EventType.allCases))
    }

    @Test(arguments: ["whsec_not base64!", "plain-text", "whsec_"])
    func aSecretThatIsNotAWhsecValueIsRefused(secret: String) {
        let found = problems(["PHONE_VERIFY_EVENTS_URL": "http://127.0.0.1:9/e", "PHONE_VERIFY_EVENTS_SECRET": secret])
        #expect(found.contains { $0.hasPrefix("PHONE_VERIFY_EVENTS_SECRET must be whsec_") })
        #expect(found.count == 1 && !found.joined().contains("not base64!"))
    }

    @Test func aMissingSecretUnknownTypesAndPlainHTTPInProductionAreRefused() {
        #expect(problems(["PHONE_VERIFY_EVENTS_URL": "http://127.0.0.1:9/e"]) == [
            "PHONE_VERIFY_EVENTS_SECRET is required by PHONE_VERIFY_EVENTS_URL",
        ])
        let unknown = problems([
            "PHONE_VERIFY_EVENTS_URL": "http://127.0.0.1:9/e", "PHONE_VERIFY_EVENTS_SECRET": Self.secret,
            "PHONE_VERIFY_EVENTS": "verification.started,verification.exploded",
        ])
        #expect(unknown.count == 1 && unknown[0].contains("unknown event type \"verification.exploded\""))
        let production = problems([
            "PHONE_VERIFY_MODE": "production", "PHONE_VERIFY_EVENTS_URL": "http://auth.example.com/events",
            "PHONE_VERIFY_EVENTS_SECRET": Self.secret,
        ])
        #expect(production.contains("PHONE_VERIFY_EVENTS_URL must be https in production mode (plain http only to a loopback address)"))
        let loopback = problems([
            "PHONE_VERIFY_MODE": "production", "PHONE_VERIFY_EVENTS_URL": "http://127.0.0.1:9/events",
            "PHONE_VERIFY_EVENTS_SECRET": Self.secret,
        ])
        #expect(!loopback.contains { $0.hasPrefix("PHONE_VERIFY_EVENTS") })
    }
}
