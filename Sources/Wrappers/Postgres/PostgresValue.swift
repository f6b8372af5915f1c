/// One SQL value, as a parameter or in a result row.
///
/// Parameters go to the server in text format, except `.bytes`, which is sent
/// in binary format as `bytea` (so zero bytes survive). `.int`, `.double` and
/// `.bool` are declared as `int8`, `float8` and `bool`; `.text` and `.null` are
/// left for the server to infer, so text also fills `varchar`, `uuid`,
/// `timestamptz`, `jsonb` … columns. Result columns are decoded by type:
/// `int2`/`int4`/`int8`/`oid` → `.int`, `float4`/`float8` → `.double`,
/// `bool` → `.bool`, `bytea` → `.bytes`, everything else (including `numeric`,
/// whose precision a `Double` would lose) → `.text`, SQL `NULL` → `.null`.
public enum PostgresValue: Sendable, Equatable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit integer (`int8`; results from `int2`/`int4` widen to it).
    case int(Int64)
    /// A double-precision float (`float8`; `float4` results widen to it).
    case double(Double)
    /// UTF-8 text. PostgreSQL text cannot contain NUL characters.
    case text(String)
    /// A boolean.
    case bool(Bool)
    /// Raw bytes (`bytea`).
    case bytes([UInt8])

    /// Whether this is SQL `NULL`.
    public var isNull: Bool { self == .null }

    /// The integer, or `nil` for any other case.
    public var intValue: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The double (an integer converts), or `nil` for any other case.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value): return Double(value)
        default: return nil
        }
    }

    /// The text, or `nil` for any other case.
    public var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The boolean, or `nil` for any other case.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The bytes, or `nil` for any other case.
    public var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }
}
