/// A byte-level JSON reader for the documents requests carry (small objects of strings and
/// numbers), used before Foundation's `JSONSerialization`.
///
/// It only answers when it is sure to give what ``JSONValue/parse(_:)`` gave through Foundation,
/// and returns `nil` ("ask Foundation", after ``JSONSyntax`` has refused what RFC 8259 does not
/// allow, such as trailing commas) for everything else: malformed input, a byte-order mark, duplicate keys, keys that are not ASCII (Foundation's order for those is not plain
/// `String` order), integers of 19 digits or more, numbers with a fraction or an exponent
/// (Foundation's conversion to `Double` is not always correctly rounded, and the result must
/// stay the same), lone surrogates, invalid UTF-8 and nesting deeper than ``maxDepth``.
///
/// Like Foundation it produces `.int` for integers and object members sorted by key.
struct JSONFastParser {
    /// Deeper documents go to Foundation (which allows 512 levels); this one recurses.
    static let maxDepth = 32

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The document in `bytes`, or `nil` when Foundation should decide.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var parser = JSONFastParser(bytes)
        parser.skipWhitespace()
        guard let value = parser.value() else { return nil }
        parser.skipWhitespace()
        // Not a ternary with `nil`: JSONValue is ExpressibleByNilLiteral, that would be `.null`.
        guard parser.index == bytes.count else { return Optional.none }
        return value
    }

    /// The byte at `position`, or 0 past the end (0 is never valid where a byte is read).
    @inline(__always)
    private func byte(at position: Int) -> UInt8 {
        position < bytes.count ? bytes[position] : 0
    }

    private mutating func skipWhitespace() {
        while true {
            switch byte(at: index) {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value() -> JSONValue? {
        switch byte(at: index) {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map { .string($0.text) }
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return nil
        }
    }

    private mutating func literal(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
        let length = text.utf8CodeUnitCount
        for offset in 0..<length where byte(at: index + offset) != text.utf8Start[offset] { return nil }
        index += length
        return value
    }

    private mutating func object() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { return nil }
        index += 1  // {
        skipWhitespace()
        var members: [JSONMember] = []
        if byte(at: index) == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            guard byte(at: index) == UInt8(ascii: "\""), let key = string(), key.isASCII else { return nil }
            skipWhitespace()
            guard byte(at: index) == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            guard let value = value() else { return nil }
            members.append(JSONMember(key.text, value))
            skipWhitespace()
            switch byte(at: index) {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                return Self.sorted(members)
            default:
                return nil
            }
        }
    }

    /// Members in Foundation's order (keys sorted, ASCII so by bytes); `nil` when two keys are
    /// equal, which Foundation would merge.
    private static func sorted(_ members: [JSONMember]) -> JSONValue? {
        guard members.count > 1 else { return .object(members) }
        let ordered = members.sorted { $0.key < $1.key }
        for position in 1..<ordered.count where ordered[position - 1].key == ordered[position].key { return nil }
        return .object(ordered)
    }

    private mutating func array() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { return nil }
        index += 1  // [
        skipWhitespace()
        var items: [JSONValue] = []
        if byte(at: index) == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            guard let item = value() else { return nil }
            items.append(item)
            skipWhitespace()
            switch byte(at: index) {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            default:
                return nil
            }
        }
    }

    /// An integer of at most 18 digits as `.int`; `nil` for anything else.
    private mutating func number() -> JSONValue? {
        let negative = byte(at: index) == UInt8(ascii: "-")
        if negative { index += 1 }
        let digitsStart = index
        var magnitude: Int64 = 0
        if byte(at: index) == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(byte(at: index)) {
                if index - digitsStart < 18 { magnitude = magnitude * 10 + Int64(byte(at: index) - UInt8(ascii: "0")) }
                index += 1
            }
        }
        let integerDigits = index - digitsStart
        guard integerDigits > 0, !isDigit(byte(at: index)) else { return nil }  // no leading zeros
        var isInteger = true
        if byte(at: index) == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard skipDigits() else { return nil }
        }
        if byte(at: index) | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if byte(at: index) == UInt8(ascii: "+") || byte(at: index) == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() else { return nil }
        }
        guard isInteger, integerDigits <= 18 else { return nil }
        return .int(negative ? -magnitude : magnitude)
    }

    /// Skips one or more digits; false when there is none.
    private mutating func skipDigits() -> Bool {
        let start = index
        while isDigit(byte(at: index)) { index += 1 }
        return index > start
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// The string starting at the opening quote under `index`, and whether it is all ASCII.
    private mutating func string() -> (text: String, isASCII: Bool)? {
        index += 1  // "
        let start = index
        var ascii = true
        while true {
            let current = byte(at: index)
            if current == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return Self.text(content, isASCII: ascii)
            }
            if current == UInt8(ascii: "\\") { break }
            guard current >= 0x20 else { return nil }  // control character, or the end
            if current >= 0x80 { ascii = false }
            index += 1
        }
        // Escapes: copy what was scanned, then decode the rest byte by byte.
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while true {
            let current = byte(at: index)
            switch current {
            case UInt8(ascii: "\""):
                index += 1
                return decoded.withUnsafeBufferPointer { Self.text($0, isASCII: ascii) }
            case UInt8(ascii: "\\"):
                guard unescape(into: &decoded) else { return nil }
                if decoded[decoded.count - 1] >= 0x80 { ascii = false }
            case 0..<0x20:
                return nil
            default:
                if current >= 0x80 { ascii = false }
                decoded.append(current)
                index += 1
            }
        }
    }

    /// `bytes` as a string; `nil` for invalid UTF-8, which Foundation refuses (and decoding would repair).
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> (text: String, isASCII: Bool)? {
        if isASCII { return (String(decoding: bytes, as: UTF8.self), true) }
        return String(validating: bytes, as: UTF8.self).map { ($0, false) }
    }

    /// Decodes the escape under `index` into UTF-8.
    private mutating func unescape(into decoded: inout [UInt8]) -> Bool {
        let escaped = byte(at: index + 1)
        index += 2
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escaped)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            guard let unit = hexUnit() else { return false }
            var scalarValue = UInt32(unit)
            if (0xD800..<0xDC00).contains(unit) {
                // A high surrogate must be followed by an escaped low one.
                guard byte(at: index) == UInt8(ascii: "\\"), byte(at: index + 1) == UInt8(ascii: "u") else { return false }
                index += 2
                guard let low = hexUnit(), (0xDC00..<0xE000).contains(low) else { return false }
                scalarValue = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else { return false }  // a lone low surrogate
            decoded.append(contentsOf: scalar.utf8)
        default:
            return false
        }
        return true
    }

    /// Four hex digits under `index`.
    private mutating func hexUnit() -> UInt16? {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let digit = byte(at: index)
            let value: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = digit - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt16(value)
            index += 1
        }
        return unit
    }
}
