/// One decoded CBOR data item (RFC 8949 §3): the definite-length major types 0–5, tags, simple
/// values and floats. Maps keep their entries in encoded order.
public indirect enum CBORValue: Sendable, Hashable {
    /// Major type 0: 0 … 2⁶⁴−1.
    case unsigned(UInt64)
    /// Major type 1: the value −1 − `n` (so `.negative(0)` is −1).
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3 (valid UTF-8).
    case text(String)
    /// Major type 4.
    case array([CBORValue])
    /// Major type 5, entries in encoded order (keys are unique).
    case map([CBORMapEntry])
    /// Major type 6: a tag number and its content.
    case tagged(UInt64, CBORValue)
    /// Major type 7: false, true, null, undefined.
    case bool(Bool)
    case null
    case undefined
    /// Major type 7: any other simple value (0–19, 32–255).
    case simple(UInt8)
    /// Major type 7: half, single or double precision, widened to `Double`.
    case float(Double)

    /// The value of a text key in a map, nil for a missing key or a value that is not a map.
    public subscript(key: String) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == .text(key) }?.value
    }

    /// The content of a byte string, nil for anything else.
    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The content of a text string, nil for anything else.
    public var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The items of an array, nil for anything else.
    public var arrayValue: [CBORValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// An integer (major type 0 or 1) that fits `Int64`, nil for anything else.
    public var int64Value: Int64? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): return n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: return nil
        }
    }
}

/// One key–value pair of a CBOR map.
public struct CBORMapEntry: Sendable, Hashable {
    public let key: CBORValue
    public let value: CBORValue

    public init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
