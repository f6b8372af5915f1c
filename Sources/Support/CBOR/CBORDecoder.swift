/// A bounded decoder of one CBOR data item (RFC 8949) for untrusted input.
///
/// Definite lengths only; every declared length and count is checked against the bytes that are
/// left before anything is allocated (a string needs its length in bytes, an array item or map
/// key at least one byte each), so a "CBOR bomb" (a huge declared length, deep nesting, an
/// indefinite length) fails at once with a `CBORError`, whatever it claims.
public struct CBORDecoder: Sendable {
    /// The most arrays, maps and tags inside one another.
    public var maxDepth: Int
    /// The most data items in total (map keys and values count one each).
    public var maxItems: Int

    public init(maxDepth: Int = 16, maxItems: Int = 4096) {
        self.maxDepth = maxDepth
        self.maxItems = maxItems
    }

    /// Decodes `bytes`, which must hold exactly one item.
    public func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        var reader = Reader(bytes: bytes, maxDepth: maxDepth, maxItems: maxItems)
        let value = try reader.item(depth: 0)
        guard reader.position == bytes.count else { throw .trailingBytes }
        return value
    }
}

/// The decoding state: the input, the read position and the items counted so far.
private struct Reader {
    let bytes: [UInt8]
    let maxDepth: Int
    let maxItems: Int
    var position = 0
    var items = 0

    init(bytes: [UInt8], maxDepth: Int, maxItems: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.maxItems = maxItems
    }

    var remaining: Int { bytes.count - position }

    mutating func byte() throws(CBORError) -> UInt8 {
        guard position < bytes.count else { throw .truncated }
        defer { position += 1 }
        return bytes[position]
    }

    /// `count` bytes as a big-endian unsigned integer (count ≤ 8).
    mutating func bigEndian(_ count: Int) throws(CBORError) -> UInt64 {
        guard remaining >= count else { throw .truncated }
        var value: UInt64 = 0
        for offset in 0..<count { value = value << 8 | UInt64(bytes[position + offset]) }
        position += count
        return value
    }

    /// The argument of a head (RFC 8949 §3): the additional information itself or the 1, 2, 4
    /// or 8 bytes after it.
    mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return try bigEndian(1)
        case 25: return try bigEndian(2)
        case 26: return try bigEndian(4)
        case 27: return try bigEndian(8)
        case 31: throw .indefiniteLength
        default: throw .malformed("reserved additional information \(info)")
        }
    }

    /// A declared length, refused unless at least `length × unit` bytes are left.
    func checkedLength(_ length: UInt64, unit: Int) throws(CBORError) -> Int {
        guard length <= UInt64(remaining / unit) else { throw .truncated }
        return Int(length)
    }

    mutating func count(_ n: Int) throws(CBORError) {
        guard n <= maxItems - items else { throw .tooManyItems }
        items += n
    }

    mutating func item(depth: Int) throws(CBORError) -> CBORValue {
        try count(1)
        let head = try byte()
        let major = head >> 5, info = head & 0x1f
        if major == 7 { return try simpleOrFloat(info) }
        let argument = try argument(info)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2, 3:
            let length = try checkedLength(argument, unit: 1)
            let content = Array(bytes[position..<position + length])
            position += length
            if major == 2 { return .bytes(content) }
            guard let text = String(validating: content, as: UTF8.self) else { throw .invalidUTF8 }
            return .text(text)
        case 4:
            guard depth < maxDepth else { throw .tooDeep }
            let length = try checkedLength(argument, unit: 1)
            var values: [CBORValue] = []
            values.reserveCapacity(length)
            for _ in 0..<length { values.append(try item(depth: depth + 1)) }
            return .array(values)
        case 5:
            guard depth < maxDepth else { throw .tooDeep }
            let length = try checkedLength(argument, unit: 2)
            var entries: [CBORMapEntry] = []
            entries.reserveCapacity(length)
            var keys = Set<CBORValue>()
            for _ in 0..<length {
                let key = try item(depth: depth + 1)
                guard keys.insert(key).inserted else { throw .duplicateKey }
                entries.append(CBORMapEntry(key: key, value: try item(depth: depth + 1)))
            }
            return .map(entries)
        default:
            guard depth < maxDepth else { throw .tooDeep }
            return .tagged(argument, try item(depth: depth + 1))
        }
    }

    /// Major type 7 (RFC 8949 §3.3).
    mutating func simpleOrFloat(_ info: UInt8) throws(CBORError) -> CBORValue {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 0..<20: return .simple(info)
        case 24:
            let value = try byte()
            guard value >= 32 else { throw .malformed("simple value \(value) in two bytes") }
            return .simple(value)
        case 25: return .float(Self.half(UInt16(try bigEndian(2))))
        case 26: return .float(Double(Float(bitPattern: UInt32(try bigEndian(4)))))
        case 27: return .float(Double(bitPattern: try bigEndian(8)))
        case 31: throw .malformed("break outside an indefinite-length item")
        default: throw .malformed("reserved additional information \(info)")
        }
    }

    /// IEEE 754 half precision (RFC 8949 Appendix D).
    static func half(_ bits: UInt16) -> Double {
        let exponent = Int(bits >> 10 & 0x1f), mantissa = Double(bits & 0x3ff)
        let magnitude: Double
        switch exponent {
        case 0: magnitude = mantissa * 0x1p-24
        case 31: magnitude = mantissa == 0 ? .infinity : .nan
        default: magnitude = (1 + mantissa / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
        }
        return bits & 0x8000 != 0 ? -magnitude : magnitude
    }
}
