import App
import Foundation
import Testing
import VerifyCore

/// A setting left unset means what its table entry says (docs/CONFIGURATION.md, `--help`).
@Suite struct SettingDefaultsTests {
    static let events = [
        "PHONE_VERIFY_EVENTS_URL": "http://127.0.0.1:9000/events",
        "PHONE_VERIFY_EVENTS_SECRET": "whsec_" + Data("events-key-0123456789abcdef-0123".utf8).base64EncodedString(),
    ]

    @Test func unsetEventsSettingsTakeTheDocumentedDefaults() throws {
        let events = try #require(try Configuration.load(environment: Self.events).events)
        #expect(events.timeout == 5 && events.maxAge == 86_400 && events.threads == 2)
        // The table (and docs/EVENTS.md) say 120; the reader once fell back to 24 of its own.
        #expect(events.maxAttempts == 120)
        #expect(Settings.eventsMaxAttempts.defaultValue == "120")
    }
}
