/// Refuses request heads whose body framing two parties could read differently (RFC 9112 §6.3,
/// §5.1, §5.2): the way request smuggling starts, when a proxy in front honours one reading
/// and this server another. Judged on the header fields as libmicrohttpd parsed them, before
/// any body is read; a refused request's connection is closed, since where the next request
/// starts is unknown.
enum FramingCheck {
    /// Why the head is refused, or nil when its framing is unambiguous. Runs on every request, so
    /// it compares bytes in place: no lowercased copies, sets or trimmed strings (it cost ~35
    /// allocations per flow that way, docs/BENCHMARKS.md).
    static func problem(_ fields: [(name: String, value: String)]) -> String? {
        var length: Substring.UTF8View?
        var lengthsDiffer = false
        var codings = 0
        var chunked = false
        for (name, value) in fields {
            // Whitespace between a field name and its colon, or an obs-folded line libmicrohttpd
            // kept as a field of its own: a proxy may read such a field where we do not.
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
                return "a header field name must be a token with no whitespace before its colon"
            }
            if equalsIgnoringCase(name.utf8, contentLength) {
                let trimmed = trimmed(value)
                if let length { lengthsDiffer = lengthsDiffer || !length.elementsEqual(trimmed) } else { length = trimmed }
            } else if equalsIgnoringCase(name.utf8, transferEncoding) {
                codings += 1
                chunked = equalsIgnoringCase(trimmed(value), chunkedCoding)
            } else if hasPrefixIgnoringCase(name.utf8, contentLength) || hasPrefixIgnoringCase(name.utf8, transferEncoding) {
                // libmicrohttpd 0.9.75 turns an obs-folded `Transfer-Encoding:` line followed by
                // ` chunked` into one field named `Transfer-Encodingchunked`; a proxy unfolds it.
                return "a framing header field (Content-Length, Transfer-Encoding) is malformed"
            }
        }
        if codings > 0 {
            if length != nil { return "a request must not carry both Content-Length and Transfer-Encoding" }
            if codings > 1 || !chunked { return "the only Transfer-Encoding accepted is chunked" }
        }
        if let length, lengthsDiffer || length.isEmpty || !length.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            return "Content-Length must be one decimal number"
        }
        return nil
    }

    private static let contentLength = Array("content-length".utf8)
    private static let transferEncoding = Array("transfer-encoding".utf8)
    private static let chunkedCoding = Array("chunked".utf8)

    /// ASCII case-insensitive equality with a lowercase `expected` (field names are tokens: ASCII).
    private static func equalsIgnoringCase<C: Collection>(_ bytes: C, _ expected: [UInt8]) -> Bool where C.Element == UInt8 {
        bytes.count == expected.count && hasPrefixIgnoringCase(bytes, expected)
    }

    private static func hasPrefixIgnoringCase<C: Collection>(_ bytes: C, _ prefix: [UInt8]) -> Bool where C.Element == UInt8 {
        guard bytes.count >= prefix.count else { return false }
        return zip(bytes, prefix).allSatisfy { (($0 >= 65 && $0 <= 90) ? $0 | 0x20 : $0) == $1 }
    }

    /// RFC 9110 §5.6.2 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122: return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    /// `value` without leading and trailing spaces and tabs (optional whitespace, RFC 9110 §5.6.3).
    private static func trimmed(_ value: String) -> Substring.UTF8View {
        let bytes = value[...].utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 32 || bytes[start] == 9 { start = bytes.index(after: start) }
        while end > start, bytes[bytes.index(before: end)] == 32 || bytes[bytes.index(before: end)] == 9 { end = bytes.index(before: end) }
        return bytes[start..<end]
    }
}
