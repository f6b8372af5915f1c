/// Why a byte string is not an acceptable CBOR item. Every problem of the input is one of these;
/// the decoder never traps on input.
public enum CBORError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended inside an item (including a declared length longer than what is left).
    case truncated
    /// Bytes follow the top-level item.
    case trailingBytes
    /// Additional information 28–30, or a simple value encoded in two bytes below 32.
    case malformed(String)
    /// Indefinite-length strings, arrays and maps (additional information 31) are refused.
    case indefiniteLength
    /// Arrays, maps and tags nested deeper than the limit.
    case tooDeep
    /// More data items in total than the limit.
    case tooManyItems
    /// A text string that is not valid UTF-8.
    case invalidUTF8
    /// A map with the same key twice.
    case duplicateKey

    public var description: String {
        switch self {
        case .truncated: return "CBOR input ends inside an item"
        case .trailingBytes: return "bytes follow the CBOR item"
        case .malformed(let detail): return "malformed CBOR: \(detail)"
        case .indefiniteLength: return "indefinite-length CBOR items are not accepted"
        case .tooDeep: return "CBOR items are nested too deeply"
        case .tooManyItems: return "CBOR input has too many items"
        case .invalidUTF8: return "CBOR text string is not valid UTF-8"
        case .duplicateKey: return "CBOR map has a duplicate key"
        }
    }
}
