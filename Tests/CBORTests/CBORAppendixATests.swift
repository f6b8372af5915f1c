import CBOR
import Testing

/// RFC 8949 Appendix A: the examples of encoded CBOR data items (the definite-length ones; the
/// indefinite-length examples are refused, see `CBORBombTests`).
@Suite struct CBORAppendixATests {
    static func decode(_ hex: String) throws -> CBORValue {
        try CBORDecoder().decode(Hex.bytes(hex))
    }

    @Test(arguments: [
        ("00", CBORValue.unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)), ("1818", .unsigned(24)),
        ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)), ("1a000f4240", .unsigned(1_000_000)),
        ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)), ("1bffffffffffffffff", .unsigned(.max)),
        ("3bffffffffffffffff", .negative(.max)), ("20", .negative(0)), ("29", .negative(9)), ("3863", .negative(99)),
        ("3903e7", .negative(999)),
        ("c249010000000000000000", .tagged(2, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]))),
        ("c349010000000000000000", .tagged(3, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]))),
        ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null), ("f7", .undefined), ("f0", .simple(16)), ("f8ff", .simple(255)),
        ("c074323031332d30332d32315432303a30343a30305a", .tagged(0, .text("2013-03-21T20:04:00Z"))),
        ("c11a514b67b0", .tagged(1, .unsigned(1_363_896_240))), ("c1fb41d452d9ec200000", .tagged(1, .float(1_363_896_240.5))),
        ("d74401020304", .tagged(23, .bytes([1, 2, 3, 4]))), ("d818456449455446", .tagged(24, .bytes([0x64, 0x49, 0x45, 0x54, 0x46]))),
        ("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, .text("http://www.example.com"))),
        ("40", .bytes([])), ("4401020304", .bytes([1, 2, 3, 4])),
        ("60", .text("")), ("6161", .text("a")), ("6449455446", .text("IETF")), ("62225c", .text("\"\\")), ("62c3bc", .text("\u{fc}")),
        ("63e6b0b4", .text("\u{6c34}")), ("64f0908591", .text("\u{10151}")),
        ("80", .array([])), ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        ("8301820203820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
        ("a0", .map([])),
        ("a201020304", .map([CBORMapEntry(key: .unsigned(1), value: .unsigned(2)), CBORMapEntry(key: .unsigned(3), value: .unsigned(4))])),
        ("a26161016162820203", .map([
            CBORMapEntry(key: .text("a"), value: .unsigned(1)), CBORMapEntry(key: .text("b"), value: .array([.unsigned(2), .unsigned(3)])),
        ])),
        ("826161a161626163", .array([.text("a"), .map([CBORMapEntry(key: .text("b"), value: .text("c"))])])),
    ])
    func vector(_ hex: String, _ expected: CBORValue) throws {
        #expect(try Self.decode(hex) == expected)
    }

    @Test func twentyFiveItemArray() throws {
        let value = try Self.decode("98190102030405060708090a0b0c0d0e0f101112131415161718181819")
        #expect(value == .array((1...25).map { .unsigned(UInt64($0)) }))
    }

    @Test func fiveEntryMap() throws {
        let value = try Self.decode("a56161614161626142616361436164614461656145")
        #expect(value["a"] == .text("A"))
        #expect(value["e"] == .text("E"))
        #expect(value["f"] == nil)
    }

    @Test(arguments: [
        ("f90000", 0.0), ("f93c00", 1.0), ("fb3ff199999999999a", 1.1), ("f93e00", 1.5), ("f97bff", 65504.0),
        ("fa47c35000", 100_000.0), ("fa7f7fffff", 3.4028234663852886e+38), ("fb7e37e43c8800759c", 1.0e+300),
        ("f90001", 5.960464477539063e-8), ("f90400", 0.00006103515625), ("f9c400", -4.0), ("fbc010666666666666", -4.1),
        ("f97c00", Double.infinity), ("f9fc00", -Double.infinity), ("fa7f800000", Double.infinity), ("fbfff0000000000000", -Double.infinity),
    ])
    func float(_ hex: String, _ expected: Double) throws {
        #expect(try Self.decode(hex) == .float(expected))
    }

    @Test func negativeZeroAndNaN() throws {
        guard case .float(let zero) = try Self.decode("f98000") else { Issue.record("not a float"); return }
        #expect(zero == 0 && zero.sign == .minus)
        for hex in ["f97e00", "fa7fc00000", "fb7ff8000000000000"] {
            guard case .float(let nan) = try Self.decode(hex) else { Issue.record("not a float"); return }
            #expect(nan.isNaN)
        }
    }

    @Test func accessors() throws {
        let value = try Self.decode("a26161016162820203")
        #expect(value["a"]?.int64Value == 1)
        #expect(value["b"]?.arrayValue?.count == 2)
        #expect(CBORValue.negative(99).int64Value == -100)
        #expect(CBORValue.unsigned(.max).int64Value == nil)
        #expect(try Self.decode("4401020304").bytesValue == [1, 2, 3, 4])
        #expect(try Self.decode("6449455446").textValue == "IETF")
    }
}

enum Hex {
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) ?? 0 }
    }
}
