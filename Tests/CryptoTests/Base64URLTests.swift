import Crypto
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    /// RFC 4648 §10 vectors (padding removed) plus URL-safe alphabet cases.
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
        ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(_ text: String, _ encoded: String) {
        #expect(Base64URL.encode(utf8(text)) == encoded)
        #expect(Base64URL.decode(encoded) == utf8(text))
    }

    @Test func usesURLSafeAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
        #expect(Base64URL.encode([0x03, 0xEF]) == "A-8")
    }

    @Test func roundTripsAllLengths() {
        for length in 0...70 {
            let bytes = SecureRandom.bytes(length)
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        let everyByte = (0...255).map { UInt8($0) }
        #expect(Base64URL.decode(Base64URL.encode(everyByte)) == everyByte)
    }

    @Test(arguments: [
        "Zg==",   // padding
        "Zm8=",   // padding
        "Z",      // impossible length 4n + 1
        "Zm9vY",  // impossible length 4n + 1
        "Zm9v+g", // standard-alphabet '+'
        "Zm9v/g", // standard-alphabet '/'
        "Zm 9v",  // whitespace
        "Zm9v\n", // newline
        "Zh",     // non-zero trailing bits ("Zg" is canonical)
        "Zm9",    // non-zero trailing bits ("Zm8" is canonical)
        "Zm9vé",  // non-ASCII
    ])
    func rejectsInvalidInput(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
