import CBOR
import Testing

/// Hostile input: every one is refused with a `CBORError` and without allocating what it
/// declares (a declared length is checked against the bytes left before anything is reserved).
@Suite struct CBORBombTests {
    static func refusal(_ bytes: [UInt8], decoder: CBORDecoder = CBORDecoder()) -> CBORError? {
        do {
            _ = try decoder.decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        "5bffffffffffffffff",  // a byte string of 2⁶⁴−1 bytes
        "5b7fffffffffffffff00",
        "7a7fffffff61",  // a text string of 2³¹−1 bytes
        "9bffffffffffffffff",  // an array of 2⁶⁴−1 items
        "9a0000ffff00",  // 65 535 items, one byte of them
        "bbffffffffffffffff",  // a map of 2⁶⁴−1 entries
        "b9ffff0000",
        "1901",  // a head cut short
        "",
    ])
    func hugeDeclaredLengthsAreTruncated(_ hex: String) {
        #expect(Self.refusal(Hex.bytes(hex)) == .truncated)
    }

    @Test(arguments: ["5f42010243030405ff", "7f657374726561646d696e67ff", "9fff", "9f018202039f0405ffff", "bf61610161629f0203ffff"])
    func indefiniteLengthsAreRefused(_ hex: String) {
        #expect(Self.refusal(Hex.bytes(hex)) == .indefiniteLength)
    }

    @Test func deepNestingIsRefused() {
        #expect(Self.refusal([UInt8](repeating: 0x81, count: 100_000) + [0x00]) == .tooDeep)
        #expect(Self.refusal([UInt8](repeating: 0xc1, count: 100_000) + [0x00]) == .tooDeep)
        #expect(Self.refusal([UInt8](repeating: 0xa1, count: 10_000) + [0x00]) == .tooDeep)
        // Exactly the limit is fine.
        #expect(Self.refusal([UInt8](repeating: 0x81, count: 16) + [0x00]) == nil)
        #expect(Self.refusal([UInt8](repeating: 0x81, count: 17) + [0x00]) == .tooDeep)
    }

    @Test func tooManyItemsAreRefused() {
        // An array of 5 000 zeros: 5 001 items against a limit of 4 096.
        #expect(Self.refusal([0x99, 0x13, 0x88] + [UInt8](repeating: 0, count: 5000)) == .tooManyItems)
        #expect(Self.refusal([0x83, 0, 0, 0], decoder: CBORDecoder(maxItems: 3)) == .tooManyItems)
        #expect(Self.refusal([0x83, 0, 0, 0], decoder: CBORDecoder(maxItems: 4)) == nil)
    }

    @Test(arguments: [
        ("0000", CBORError.trailingBytes), ("62c328", .invalidUTF8), ("a201020103", .duplicateKey),
        ("a2616101616102", .duplicateKey), ("1c", .malformed("reserved additional information 28")),
        ("f818", .malformed("simple value 24 in two bytes")), ("ff", .malformed("break outside an indefinite-length item")),
        ("fc", .malformed("reserved additional information 28")),
    ])
    func malformedItems(_ hex: String, _ error: CBORError) {
        #expect(Self.refusal(Hex.bytes(hex)) == error)
    }

    @Test func everyPrefixOfAValidItemIsRefusedWithoutTrapping() throws {
        let item = Hex.bytes("a3636b6579820102646e657374a16161f56562797465734401020304")
        #expect(Self.refusal(item) == nil)
        #expect(Self.refusal(item + [0x00]) == .trailingBytes)
        for length in 0..<item.count {
            #expect(Self.refusal(Array(item.prefix(length))) != nil)
        }
    }
}
