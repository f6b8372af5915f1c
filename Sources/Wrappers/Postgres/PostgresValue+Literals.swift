/// Literal and initializer conveniences so parameters read naturally:
/// `try connection.query("INSERT INTO t VALUES ($1, $2, $3)", [1, "a", nil])`.
extension PostgresValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringInterpolation, ExpressibleByBooleanLiteral
{
    /// `nil` is SQL `NULL`.
    public init(nilLiteral: ()) { self = .null }

    /// An integer literal is `.int`.
    public init(integerLiteral value: Int64) { self = .int(value) }

    /// A float literal is `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }

    /// A string literal, interpolated or not, is `.text` (a parameter value, never SQL).
    public init(stringLiteral value: String) { self = .text(value) }

    /// A boolean literal is `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// An `Int` as `.int`.
    public init(_ value: Int) { self = .int(Int64(value)) }

    /// An `Int64` as `.int`.
    public init(_ value: Int64) { self = .int(value) }

    /// A `Double` as `.double`.
    public init(_ value: Double) { self = .double(value) }

    /// A `String` as `.text`.
    public init(_ value: String) { self = .text(value) }

    /// A `Bool` as `.bool`.
    public init(_ value: Bool) { self = .bool(value) }

    /// Bytes as `.bytes`.
    public init(_ value: [UInt8]) { self = .bytes(value) }

    /// Optional text: `nil` becomes `.null`.
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }

    /// Optional integer: `nil` becomes `.null`.
    public init(_ value: Int64?) { self = value.map { .int($0) } ?? .null }

    /// Optional integer: `nil` becomes `.null`.
    public init(_ value: Int?) { self = value.map { .int(Int64($0)) } ?? .null }
}
