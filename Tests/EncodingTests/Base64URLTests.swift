import Testing

@testable import Encoding

@Suite("Base64URL")
struct Base64URLTests {
    /// RFC 4648 §10 test vectors with the `=` padding removed (RFC 7515 §2).
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
        ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(_ text: String, _ encoded: String) {
        #expect(Base64URL.encode(Array(text.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(text.utf8))
    }

    @Test func usesTheURLSafeAlphabetWithoutPadding() {
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode([0xFF]) == "_w")
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
        for length in 0..<12 {
            let text = Base64URL.encode([UInt8](repeating: 0xFF, count: length))
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(text.utf8.count == (length * 4 + 2) / 3)
        }
    }

    @Test func roundTripsEveryByteAndLength() {
        let everyByte = (0...255).map { UInt8($0) }
        #expect(Base64URL.decode(Base64URL.encode(everyByte)) == everyByte)
        for length in 0...70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test func appendsAfterExistingBytes() {
        var out = Array("x.".utf8)
        Base64URL.append(Array("foobar".utf8), to: &out)
        Base64URL.append([], to: &out)
        out.append(UInt8(ascii: "."))
        Base64URL.append(Array("fo".utf8), to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "x.Zm9vYmFy.Zm8")
    }

    @Test(arguments: [
        "Zg==",   // padding
        "Z",      // impossible length 4n + 1
        "Zm9v+g", // standard-alphabet '+'
        "Zm9v/g", // standard-alphabet '/'
        "Zm 9v",  // whitespace
        "Zh",     // non-zero trailing bits ("Zg" is canonical)
        "Zm9vé",  // non-ASCII
    ])
    func rejectsNonCanonicalInput(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
