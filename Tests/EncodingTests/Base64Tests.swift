import Encoding
import Foundation
import Testing

/// Standard, padded base64 (RFC 4648 §4) from the one codec `Base64URL` uses.
@Suite struct Base64Tests {
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(_ text: String, _ encoded: String) {
        #expect(Base64.encode(Array(text.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(text.utf8))
    }

    /// The standard alphabet's `+` and `/`, and agreement with Foundation on every length.
    @Test func agreesWithFoundation() {
        for count in 0..<64 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 251) }
            let encoded = Base64.encode(bytes)
            #expect(encoded == Data(bytes).base64EncodedString())
            #expect(Base64.decode(encoded) == bytes)
        }
    }

    /// Strict decoding, as Foundation's: padding required, nothing outside the alphabet.
    @Test(arguments: ["Zg", "Zg=", "Zg===", "Z===", "Zm9v\n", " Zm9v", "Zm9v YmFy", "Zm-_", "Zh==", "=Zm9"])
    func malformedTextIsRefused(_ text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
