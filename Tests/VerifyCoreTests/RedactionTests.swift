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

    /// A vendor that echoes a call's request quotes the code as the voice script spells it, often
    /// URL-encoded (Twilio's inline Twiml is form-encoded) or inside SSML: every such form goes.
    @Test(arguments: [
        "Twiml=%3CResponse%3E%3CSay+language%3D%22en-US%22%3EYour+Acme+code+is+4%2C+8%2C+2%2C+9%2C+1%2C+3.%3C%2FSay%3E",
        "Twiml=<Response><Say>Your code is 4, 8, 2, 9, 1, 3.</Say></Response>",
        #"ncco: [{"action":"talk","text":"Your code is 4, 8, 2, 9, 1, 3."}]"#,
        "said 4 8 2 9 1 3 twice",
        "said 4+8+2+9+1+3 twice",
        #"<speak>4<break time="300ms"/>8<break time="300ms"/>2<break/>9<break/>1<break/>3</speak>"#,
        "%34%38%32%39%31%33",
        "Twiml=Your%2Bcode%2Bis%2B4%252C%2B8%252C%2B2%252C%2B9%252C%2B1%252C%2B3",
        "&#52;, &#56;, 2, 9, 1, 3",
    ])
    func aSpelledOrEncodedCodeIsRemoved(text: String) {
        let clean = Redaction.scrub("twilio-voice: HTTP 400 code 12100: " + text, secrets: ["482913"])
        let digits = clean.filter(\.isNumber)
        #expect(!digits.contains("482913"), "\(clean)")
        #expect(clean.hasPrefix("twilio-voice: HTTP 400 code 12100: ") && clean.contains("[redacted]"), "\(clean)")
    }

    @Test func anAlphanumericCodeIsRemovedInAnyCase() {
        let clean = Redaction.scrub("text=Your+code+is+a%2C+7%2C+K%2C+2%2C+q%2C+9 ok", secrets: ["A7K2Q9"])
        #expect(clean == "text=Your+code+is+[redacted] ok")
    }

    /// Other digits stay: a vendor's error code, a status, a count.
    @Test func digitsThatAreNotTheCodeStay() {
        let text = "code 21211: 4 of 8 parameters bad (HTTP 400), retry in 2 s"
        #expect(Redaction.scrub(text, secrets: ["482913"]) == text)
    }
}
