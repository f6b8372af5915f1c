import Foundation

extension JSONValue {
    /// Compact UTF-8 serialisation.
    public func encoded() -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(256)
        write(to: &out)
        return out
    }

    public func encodedString() -> String { String(decoding: encoded(), as: UTF8.self) }

    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d):
            if d.isFinite { out.append(contentsOf: String(d).utf8) } else { out.append(contentsOf: "null".utf8) }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = s
        text.withUTF8 { bytes in
            // Runs of bytes that need no escape are copied at once.
            var runStart = 0
            for index in 0..<bytes.count where needsEscape(bytes[index]) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscape(bytes[index], to: &out)
                runStart = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<0x20, 0x7F, UInt8(ascii: "\""), UInt8(ascii: "\\"): return true
        // Escaped so JSON can never be sniffed or embedded as HTML.
        case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"): return true
        default: return false
        }
    }

    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            out.append(UInt8(ascii: "u"))
            out.append(UInt8(ascii: "0"))
            out.append(UInt8(ascii: "0"))
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0F)])
        }
    }

    /// Parses JSON text (RFC 8259) with Foundation's semantics: throws on malformed input, the
    /// last of duplicate members wins, members come sorted by key. Plain documents are read by
    /// ``JSONFastParser`` on the bytes; whatever it is unsure of goes to Foundation's parser, once
    /// ``JSONSyntax`` has checked RFC 8259's grammar (Foundation accepts trailing commas and UTF-16).
    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        if let value = bytes.withUnsafeBufferPointer({ JSONFastParser.parse($0) }) { return value }
        guard bytes.withUnsafeBufferPointer({ JSONSyntax.isValid($0) }) else { throw MalformedJSON() }
        return try parseWithFoundation(bytes)
    }

    /// Foundation's `JSONSerialization`, turned into a ``JSONValue``.
    static func parseWithFoundation(_ bytes: [UInt8]) throws -> JSONValue {
        let object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        return try JSONValue(foundation: object)
    }

    private struct Unsupported: Error {}

    /// Not a JSON text in UTF-8 by RFC 8259's grammar.
    public struct MalformedJSON: Error {}

    init(foundation object: Any) throws {
        switch object {
        case is NSNull: self = .null
        case let s as String: self = .string(s)
        case let n as NSNumber:
            let kind = String(cString: n.objCType)
            if kind == "c" {
                self = .bool(n.boolValue)
            } else if kind == "d" || kind == "f" {
                self = .double(n.doubleValue)
            } else {
                self = .int(n.int64Value)
            }
        case let a as [Any]: self = .array(try a.map { try JSONValue(foundation: $0) })
        case let d as [String: Any]:
            self = .object(try d.keys.sorted().map { JSONMember($0, try JSONValue(foundation: d[$0]!)) })
        default: throw Unsupported()
        }
    }
}
