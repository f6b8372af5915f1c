/// Literal and initializer conveniences so parameters read naturally:
/// `try connection.run("INSERT INTO t VALUES (?, ?, ?)", [1, "a", nil])`.
extension SQLiteValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringInterpolation, ExpressibleByBooleanLiteral
{
    /// `nil` is SQL `NULL`.
    public init(nilLiteral: ()) { self = .null }

    /// An integer literal is `.integer`.
    public init(integerLiteral value: Int64) { self = .integer(value) }

    /// A float literal is `.real`.
    public init(floatLiteral value: Double) { self = .real(value) }

    /// A string literal, interpolated or not, is `.text` (a bound value, never SQL).
    public init(stringLiteral value: String) { self = .text(value) }

    /// `true` is 1 and `false` is 0 (SQLite has no boolean type).
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }

    /// An `Int` as `.integer`.
    public init(_ value: Int) { self = .integer(Int64(value)) }

    /// An `Int64` as `.integer`.
    public init(_ value: Int64) { self = .integer(value) }

    /// A `Double` as `.real`.
    public init(_ value: Double) { self = .real(value) }

    /// A `String` as `.text`.
    public init(_ value: String) { self = .text(value) }

    /// Bytes as `.blob`.
    public init(_ value: [UInt8]) { self = .blob(value) }

    /// A `Bool` as 1 or 0.
    public init(_ value: Bool) { self = .integer(value ? 1 : 0) }

    /// Optional text: `nil` becomes `.null`.
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }

    /// Optional integer: `nil` becomes `.null`.
    public init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }

    /// Optional integer: `nil` becomes `.null`.
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
}
