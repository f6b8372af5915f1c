import Foundation
import Testing
import VerifyCore
import VerifyTesting

@Suite struct SmallTypesTests {
    @Test(arguments: [
        ("+14155552671", 1, "+1*******2671"), ("+447911123456", 44, "+44*******3456"), ("+14155552671", nil, "+1*******2671"),
    ] as [(String, Int?, String)])
    func phoneMask(number: String, countryCode: Int?, masked: String) {
        #expect(PhoneMask.mask(number, countryCode: countryCode) == masked)
    }

    @Test func jsonEncodingEscapesAndKeepsOrder() throws {
        let value: JSONValue = ["b": 1, "a": "x\"y\\z\n<", "c": [true, nil, .double(1.5)]]
        #expect(value.encodedString() == #"{"b":1,"a":"x\"y\\z\n\u003c","c":[true,null,1.5]}"#)
        #expect(try JSONValue.parse(value.encoded())["a"] == "x\"y\\z\n<")
    }

    @Test func jsonStringEscapesEveryByteThatNeedsIt() {
        let text = "\"a\\b\r\t\u{1}\u{8}\u{C}\u{1F}\u{7F}<>&/é😀"
        #expect(JSONValue.string(text).encodedString()
            == #""\"a\\b\r\t\u0001\u0008\u000c\u001f\u007f\u003c\u003e\u0026/é😀""#)
        #expect(JSONValue.string("").encodedString() == #""""#)
        #expect(JSONValue.string("plain").encodedString() == #""plain""#)
        #expect(JSONValue.string("\n").encodedString() == #""\n""#)
    }

    @Test func jsonParsingTypes() throws {
        let v = try JSONValue.parse(Array(#"{"t":true,"i":7,"d":2.5,"s":"é","n":null,"a":[1]}"#.utf8))
        #expect(v["t"] == true)
        #expect(v["i"] == 7)
        #expect(v["d"] == .double(2.5))
        #expect(v["s"] == "é")
        #expect(v["n"] == .null)
        #expect(v["a"] == [1])
    }

    @Test func timeOrderedIdentifiersSortByCreationAndStayRandom() {
        let random = SeededRandom()
        let t = Date(timeIntervalSince1970: 1_800_000_000.123)
        let a = random.timeOrderedIdentifier(prefix: "ver_", at: t)
        let b = random.timeOrderedIdentifier(prefix: "ver_", at: t)
        let later = random.timeOrderedIdentifier(prefix: "ver_", at: t.addingTimeInterval(0.002))
        for id in [a, b, later] {
            #expect(id.count == 36 && id.hasPrefix("ver_"))
            #expect(id.dropFirst(4).allSatisfy { "0123456789abcdef".contains($0) })
        }
        #expect(a.prefix(16) == "ver_" + String(1_800_000_000_123, radix: 16).leftPadded(12))
        #expect(a != b)  // same millisecond, different random part
        #expect(a < later && b < later)
    }

    @Test(arguments: [nil, "fr"] as [String?])
    func messagePayloadJSONMatchesCodable(locale: String?) throws {
        let payload = MessagePayload(body: "Votre code : 123456 \"é\"\n@app.test #123456", code: "123456", locale: locale, display: "+33 6 12 34 56 78")
        #expect(try MessagePayload(json: payload.json) == payload)
        // Payloads sealed by earlier versions (Foundation's encoder) still open, and vice versa.
        #expect(try MessagePayload(json: Array(JSONEncoder().encode(payload))) == payload)
        #expect(try JSONDecoder().decode(MessagePayload.self, from: Data(payload.json)) == payload)
        #expect(throws: (any Error).self) { try MessagePayload(json: Array(#"{"body":"b"}"#.utf8)) }
    }

    @Test func base64URLRoundTrip() {
        for n in 0..<40 {
            let bytes = (0..<n).map { UInt8(($0 * 37 + 11) % 256) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
        }
        #expect(Base64URL.decode("a+b") == nil)
    }

    @Test func rfc3339() {
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_800_000_000.9)) == "2027-01-15T08:00:00Z")
    }

    @Test func cooldownDoubles() {
        let policy = VerificationPolicy()
        #expect((1...5).map(policy.cooldown(afterSends:)) == [30, 60, 120, 240, 480])
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
