/// RFC 8259's grammar, checked on the bytes before Foundation reads the values of a document the
/// fast parser left to it: Foundation is lenient (trailing commas, UTF-16 and UTF-32 text), and
/// Malformed JSON is a 400 (docs/ERRORS.md, `invalid_request`). Values are not built here.
struct JSONSyntax {
    /// Foundation's own nesting limit.
    static let maxDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether `bytes` is one JSON text in UTF-8 (an initial byte-order mark is tolerated, as
    /// RFC 8259 allows parsers to).
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard String(validating: bytes, as: UTF8.self) != nil else { return false }
        var checker = JSONSyntax(bytes)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { checker.index = 3 }
        checker.skipWhitespace()
        guard checker.value(depth: 0) else { return false }
        checker.skipWhitespace()
        return checker.index == bytes.count
    }

    private func byte(_ offset: Int = 0) -> UInt8 {
        index + offset < bytes.count ? bytes[index + offset] : 0
    }

    private mutating func skipWhitespace() {
        while [0x20, 0x09, 0x0A, 0x0D].contains(byte()) { index += 1 }
    }

    private mutating func value(depth: Int) -> Bool {
        switch byte() {
        case UInt8(ascii: "{"): return container(close: UInt8(ascii: "}"), depth: depth, keyed: true)
        case UInt8(ascii: "["): return container(close: UInt8(ascii: "]"), depth: depth, keyed: false)
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    /// An object (`keyed`) or an array; no trailing comma.
    private mutating func container(close: UInt8, depth: Int, keyed: Bool) -> Bool {
        guard depth < Self.maxDepth else { return false }
        index += 1
        skipWhitespace()
        if byte() == close { index += 1; return true }
        while true {
            if keyed {
                guard byte() == UInt8(ascii: "\""), string() else { return false }
                skipWhitespace()
                guard byte() == UInt8(ascii: ":") else { return false }
                index += 1
                skipWhitespace()
            }
            guard value(depth: depth + 1) else { return false }
            skipWhitespace()
            switch byte() {
            case UInt8(ascii: ","): index += 1; skipWhitespace()
            case close: index += 1; return true
            default: return false
            }
        }
    }

    private mutating func string() -> Bool {
        index += 1
        while index < bytes.count {
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""): index += 1; return true
            case 0..<0x20: return false
            case UInt8(ascii: "\\"):
                switch byte(1) {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                case UInt8(ascii: "u"):
                    guard (2...5).allSatisfy({ Self.isHex(byte($0)) }) else { return false }
                    index += 6
                default: return false
                }
            default: index += 1
            }
        }
        return false
    }

    private static func isHex(_ b: UInt8) -> Bool {
        (48...57).contains(b) || (65...70).contains(b) || (97...102).contains(b)
    }

    private mutating func literal(_ word: String) -> Bool {
        for (i, b) in word.utf8.enumerated() where byte(i) != b { return false }
        index += word.utf8.count
        return true
    }

    /// -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    private mutating func number() -> Bool {
        if byte() == UInt8(ascii: "-") { index += 1 }
        if byte() == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() else { return false }
        }
        if byte() == UInt8(ascii: ".") {
            index += 1
            guard digits() else { return false }
        }
        if byte() == UInt8(ascii: "e") || byte() == UInt8(ascii: "E") {
            index += 1
            if byte() == UInt8(ascii: "+") || byte() == UInt8(ascii: "-") { index += 1 }
            guard digits() else { return false }
        }
        return true
    }

    /// One or more digits.
    private mutating func digits() -> Bool {
        let start = index
        while (48...57).contains(byte()) { index += 1 }
        return index > start
    }
}
