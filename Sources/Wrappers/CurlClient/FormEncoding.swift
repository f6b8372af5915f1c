/// `application/x-www-form-urlencoded` bodies and query strings.
///
/// Encoding is exact and conservative: every UTF-8 byte except the RFC 3986 unreserved set
/// (`A-Z a-z 0-9 - . _ ~`) becomes `%HH` with upper-case hex, so a space is `%20` and a
/// literal `+` is `%2B`. Every form decoder reads that correctly. Decoding also accepts `+`
/// as a space, as browsers send it.
public enum FormEncoding {
    /// Encodes pairs as `name=value` joined by `&`, in the given order.
    public static func encode(_ fields: [(String, String)]) -> String {
        fields.map { percentEncode($0.0) + "=" + percentEncode($0.1) }.joined(separator: "&")
    }

    /// Decodes `a=1&b=2` into pairs in order. `+` means space, malformed `%` escapes are
    /// kept literally, empty segments are skipped, a segment without `=` has an empty value.
    public static func decode(_ text: String) -> [(String, String)] {
        text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { segment in
            if let equals = segment.firstIndex(of: UInt8(ascii: "=")) {
                return (percentDecode(segment[..<equals]), percentDecode(segment[segment.index(after: equals)...]))
            }
            return (percentDecode(segment[...]), "")
        }
    }

    /// Percent-encodes one name or value (also right for a URL query component or path segment).
    public static func percentEncode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func percentDecode(_ bytes: Substring.UTF8View) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"),
                      let first = bytes.index(index, offsetBy: 1, limitedBy: bytes.endIndex), first < bytes.endIndex,
                      let second = bytes.index(first, offsetBy: 1, limitedBy: bytes.endIndex), second < bytes.endIndex,
                      let high = hexValue(bytes[first]), let low = hexValue(bytes[second]) {
                out.append(high << 4 | low)
                index = second
            } else {
                out.append(byte)
            }
            index = bytes.index(after: index)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
