import Foundation
import Testing
import VerifyCore

/// Names that end up in the SMS text: no links and no phone numbers (Twilio's rule for a Verify
/// service's friendly name: no links, at most 4 digits), so a tenant cannot make a message say
/// "Your Bank: call +1 900 555 0199 code is …".
@Suite struct TwilioCompatFriendlyNameTests {
    typealias H = TwilioCompatHarness

    static let refused = [
        "Call +1 900 555 0199", "Bank 0800123456", "Acme 12345", "1 2 3 4 5", "１２３４５", "https://evil.example",
        "evil.example/login", "www.acme", "acme.com", "Acme HTTP://x", "bit.ly-help", "support@acme.io",
        // Bypasses an attack review found: invisible joiners, combining marks, look-alike dots and
        // colons, bracketed dots, an IP address.
        "acme\u{200D}.com", "acme.\u{200C}com", "acme\u{034F}.com", "acme\u{FE0F}.com", "acme\u{2024}com", "acme\u{FE52}com",
        "acme·com", "see 8.8.8.8 now", "acme.c\u{0301}om", "https\u{FF1A}//acme", "example[.]com",
    ]
    static let accepted = [
        "Acme", "Acme 2024", "Acme Inc.", "St. Louis Bank", "A.B. Corp", "Café Zoë", "Acme-Login_2", "नमस्ते बैंक", "Version 2.0",
    ]

    @Test(arguments: refused) func aServiceNameWithALinkOrANumberIsRefused(_ name: String) throws {
        let h = H()
        let created = h.call("POST", "/v2/Services", form: [("FriendlyName", name)])
        #expect(created.status == 400 && created.code == 60200, "\(name)")
        #expect(created["message"]?.stringValue?.contains("FriendlyName") == true)
        let service = h.createService()
        let updated = h.call("POST", "/v2/Services/\(service)", form: [("FriendlyName", name)])
        #expect(updated.status == 400 && updated.code == 60200, "\(name)")
        #expect(h.call("GET", "/v2/Services/\(service)")["friendly_name"] == "Acme")
        let start = h.send(service, extra: [("CustomFriendlyName", name)])
        #expect(start.status == 400 && start.code == 60200, "\(name)")
        #expect(start["message"]?.stringValue?.contains("CustomFriendlyName") == true)
        #expect(h.t.store.messages.isEmpty)
    }

    @Test(arguments: accepted) func ordinaryNamesAreAccepted(_ name: String) throws {
        let h = H()
        #expect(h.call("POST", "/v2/Services", form: [("FriendlyName", name)]).status == 201, "\(name)")
        let service = h.createService()
        #expect(h.send(service, extra: [("CustomFriendlyName", name)]).status == 201, "\(name)")
    }
}
