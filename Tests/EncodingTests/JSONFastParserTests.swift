import Testing

@testable import Encoding

/// ``JSONFastParser`` must give exactly what Foundation gives, or step aside.
@Suite struct JSONFastParserTests {
    private func fast(_ text: String) -> JSONValue? {
        Array(text.utf8).withUnsafeBufferPointer { JSONFastParser.parse($0) }
    }

    /// Fast result (when there is one) equals Foundation's; returns the fast one.
    @discardableResult
    private func agree(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue? {
        let quick = bytes.withUnsafeBufferPointer { JSONFastParser.parse($0) }
        let slow = try? JSONValue.parseWithFoundation(bytes)
        if let quick {
            #expect(slow == quick, "\(String(decoding: bytes, as: UTF8.self).debugDescription)", sourceLocation: sourceLocation)
        }
        return quick
    }

    @Test(arguments: [
        #"{"phone_number":"+15555550123"}"#, #"{"code":"123456"}"#,
        #" { "b" : [1, -2, 0, true, false, null, {}, []], "a" : {"z": "y"} } "#,
        #"{"s":"tab\t \"quoted\" \\ \/ \u00e9 \ud83d\ude00 \u0000 é 日本"}"#, #""just a string""#, "42", "-0",
        "123456789012345678", "-999999999999999999", #"["é", "\u00e9", "e\u0301"]"#,
        #"{"phone_number":"+1 (555) 555-0123","channel":"sms","locale":"fr-CA"}"#,
    ])
    func readsCommonDocumentsLikeFoundation(_ text: String) {
        #expect(agree(Array(text.utf8)) != nil)
    }

    @Test func sortsMembersByKeyLikeFoundation() {
        #expect(fast(#"{"b":1,"a":2,"_":3,"A":4,"aa":5}"#) == .object([
            JSONMember("A", 4), JSONMember("_", 3), JSONMember("a", 2), JSONMember("aa", 5), JSONMember("b", 1),
        ]))
        #expect(fast(#"{"i":7,"d":[]}"#) == .object([JSONMember("d", []), JSONMember("i", 7)]))
    }

    /// Malformed input, Foundation's leniencies and values it converts differently.
    @Test(arguments: [
        "", " ", "[1,]", #"{"a":1,}"#, #"{"a":1,"a":2}"#, "{\"e\u{301}\":1,\"\u{e9}\":2}", "\u{FEFF}1", "01", "-", "1.",
        ".5", "+1", "1e", "1E400", "9223372036854775807", "-9223372036854775808", "10000000000000000000",
        "1.0", "2.5", "1e2", "-0.0", "1e-400", #"{"a":[1,2.5]}"#, #"{"é":1}"#, #"{"\u00e9":1}"#,
        #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, "\"a\tb\"", #""\x""#, #""\U00e9""#, "[1 2]", "1 2",
        "tru", "nul", "[", "{", #"{"a"}"#, #"{"a":}"#, #"{1:2}"#, "\"abc",
        String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
    ])
    func leavesEverythingElseToFoundation(_ text: String) {
        #expect(fast(text) == nil)
        // Foundation's leniencies (trailing commas) are refused by RFC 8259's grammar first.
        let lenient = ["[1,]", #"{"a":1,}"#].contains(text)
        #expect((try? JSONValue.parse(Array(text.utf8))) == (lenient ? nil : (try? JSONValue.parseWithFoundation(Array(text.utf8)))))
    }

    /// docs/ERRORS.md: malformed JSON is a 400, whatever Foundation tolerates.
    @Test func foundationsLeniencesAreRefused() {
        for text in ["[1,]", #"{"a":1,}"#, #"{"phone_number":"+1","a":[1,],"b":2.5}"#, "[1.5,,]", #"{"a":2.5 /* c */}"#, "NaN", "[Infinity]"] {
            #expect((try? JSONValue.parse(Array(text.utf8))) == nil, "\(text)")
        }
        // UTF-16 and UTF-32 texts (Foundation detects and reads them); RFC 8259 requires UTF-8.
        let utf16: [UInt8] = Array(#"{"a":2.5}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect((try? JSONValue.parse(utf16)) == nil)
        // Valid documents the fast parser leaves to Foundation still parse.
        #expect((try? JSONValue.parse(Array("\u{FEFF}{\"a\":2.5}".utf8))) == .object([JSONMember("a", .double(2.5))]))
        #expect((try? JSONValue.parse(Array(#"{"a":[1,-0.5e3,{"b":"\u00e9"}]}"#.utf8))) != nil)
    }

    @Test func leavesInvalidUTF8ToFoundation() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22]] {
            #expect(bytes.withUnsafeBufferPointer { JSONFastParser.parse($0) } == nil)
        }
    }

    /// Random documents and random corruptions of them: wherever the fast parser answers, it
    /// answers like Foundation.
    @Test func agreesWithFoundationOnRandomInput() {
        var random = SplitMix(seed: 0x5EED)
        var answered = 0
        for round in 0..<3000 {
            var bytes = Array(Self.document(&random, depth: 0).utf8)
            if round % 2 == 1 {
                for _ in 0...random.next(below: 3) { Self.corrupt(&bytes, &random) }
            }
            if agree(bytes) != nil { answered += 1 }
        }
        #expect(answered > 600)  // the generator also makes numbers and escapes Foundation must judge
    }

    private static let pieces = [
        "a", "Z", "0", " ", "é", "日", "😀", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\u0000", "\\ud83d\\ude00",
        "\\ud800", "<", "\u{7F}", "\\t", "e\u{301}",
    ]
    private static let numbers = [
        "0", "-0", "7", "-12", "3.25", "-0.5e3", "1E2", "2e-3", "999999999999999999", "1234567890123456789",
        "0.1", "1e308", "1e309", "00", "1.", "-",
    ]

    private static func document(_ random: inout SplitMix, depth: Int) -> String {
        let space = [" ", "", "", "\n", "\t"][random.next(below: 5)]
        switch random.next(below: depth > 3 ? 4 : 7) {
        case 0: return space + ["true", "false", "null"][random.next(below: 3)]
        case 1: return space + numbers[random.next(below: numbers.count)]
        case 2, 3: return space + string(&random)
        case 4:
            let items = (0..<random.next(below: 4)).map { _ in document(&random, depth: depth + 1) }
            return "[" + items.joined(separator: ",") + space + "]"
        default:
            let members = (0..<random.next(below: 5)).map { _ in
                string(&random) + space + ":" + document(&random, depth: depth + 1)
            }
            return "{" + space + members.joined(separator: ",") + "}"
        }
    }

    private static func string(_ random: inout SplitMix) -> String {
        "\"" + (0..<random.next(below: 4)).map { _ in pieces[random.next(below: pieces.count)] }.joined() + "\""
    }

    private static func corrupt(_ bytes: inout [UInt8], _ random: inout SplitMix) {
        let alphabet = Array(#"{}[],:"\ 0-1eE.tfnu"#.utf8) + [0x00, 0x09, 0xC3, 0xFF]
        let position = random.next(below: bytes.count + 1)
        switch random.next(below: 3) {
        case 0 where position < bytes.count: bytes.remove(at: position)
        case 1 where position < bytes.count: bytes[position] = alphabet[random.next(below: alphabet.count)]
        default: bytes.insert(alphabet[random.next(below: alphabet.count)], at: position)
        }
    }
}

/// A small deterministic generator, so failures reproduce.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
