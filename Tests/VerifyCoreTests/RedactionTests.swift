import Testing
import VerifyCore

/// Vendors' texts lose the code, the number and anything that looks like a number.
@Suite struct RedactionTests {
    @Test(arguments: [
        ("The 'To' number +14155552671 is not a valid phone number.", "The 'To' number [redacted] is not a valid phone number."),
        ("to=14155552671 rejected", "to=[redacted] rejected"),
        ("number +1 (415) 555-2671 barred", "number [redacted] barred"),
        ("twilio code 21211: invalid", "twilio code 21211: invalid"),
        ("HTTP 503 after 2.5 s", "HTTP 503 after 2.5 s"),
    ])
    func numberLikeRunsAreMasked(text: String, expected: String) {
        #expect(Redaction.scrub(text, secrets: []) == expected)
    }

    @Test func secretsAreRemovedWhereverTheyAppear() {
        let echo = #"webhook: HTTP 400 {"to":"+14155552671","code":"4821","body":"Your code is 4821"}"#
        let clean = Redaction.scrub(echo, secrets: ["4821", "+14155552671"])
        #expect(!clean.contains("4821") && !clean.contains("4155552671"))
        #expect(clean == #"webhook: HTTP 400 {"to":"[redacted]","code":"[redacted]","body":"Your code is [redacted]"}"#)
        #expect(Redaction.scrub("", secrets: ["", "1"]) == "")
    }

    /// Scrubbed before it is cut: a code straddling the cut would otherwise leave its first digits.
    @Test func aSecretAtTheCutIsStillRemoved() {
        let text = String(repeating: "x", count: 297) + #""123456""#
        let clean = Redaction.scrub(text, secrets: ["123456"])
        #expect(clean.count == 300 && !clean.contains("123"))
        #expect(Redaction.scrub(String(repeating: "1 ", count: 50_000), secrets: []).hasPrefix("[redacted]"))
    }
}
