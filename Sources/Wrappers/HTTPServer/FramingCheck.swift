/// Refuses request heads whose body framing two parties could read differently (RFC 9112 §6.3,
/// §5.1, §5.2): the way request smuggling starts, when a proxy in front honours one reading
/// and this server another. Judged on the header fields as libmicrohttpd parsed them, before
/// any body is read; a refused request's connection is closed, since where the next request
/// starts is unknown.
enum FramingCheck {
    /// Why the head is refused, or nil when its framing is unambiguous.
    static func problem(_ fields: [(name: String, value: String)]) -> String? {
        var lengths: Set<String> = []
        var codings: [String] = []
        for (name, value) in fields {
            // Whitespace between a field name and its colon, or an obs-folded line libmicrohttpd
            // kept as a field of its own: a proxy may read such a field where we do not.
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
                return "a header field name must be a token with no whitespace before its colon"
            }
            let lowered = name.lowercased()
            switch lowered {
            case "content-length": lengths.insert(trimmed(value))
            case "transfer-encoding": codings.append(trimmed(value).lowercased())
            default:
                // libmicrohttpd 0.9.75 turns an obs-folded `Transfer-Encoding:` line followed by
                // ` chunked` into one field named `Transfer-Encodingchunked`; a proxy unfolds it.
                if lowered.hasPrefix("content-length") || lowered.hasPrefix("transfer-encoding") {
                    return "a framing header field (Content-Length, Transfer-Encoding) is malformed"
                }
            }
        }
        if !codings.isEmpty {
            if !lengths.isEmpty { return "a request must not carry both Content-Length and Transfer-Encoding" }
            if codings != ["chunked"] { return "the only Transfer-Encoding accepted is chunked" }
        }
        if lengths.count > 1 || lengths.contains(where: { $0.isEmpty || !$0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }) {
            return "Content-Length must be one decimal number"
        }
        return nil
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

    private static func trimmed(_ value: String) -> String {
        String(value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
