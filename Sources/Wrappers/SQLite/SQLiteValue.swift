/// A value stored in or bound to SQLite: one of its five storage classes.
///
/// Used both for statement parameters and for the columns of a ``Row``.
/// Literals work as parameters: `[42, "+15551234567", nil, 1.5]`.
public enum SQLiteValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes; an empty array is an empty blob, not `NULL`.
    case blob([UInt8])

    /// Whether this is SQL `NULL`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The integer, or `nil` for any other storage class (no coercion).
    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The double; integers convert (SQLite may store a whole REAL as INTEGER
    /// in REAL-affinity columns). `nil` for text, blob and null.
    public var realValue: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    /// The text, or `nil` for any other storage class (no coercion).
    public var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The bytes, or `nil` for any other storage class (no coercion).
    public var blobValue: [UInt8]? {
        if case .blob(let value) = self { return value }
        return nil
    }
}
