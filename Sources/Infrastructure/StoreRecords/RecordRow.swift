/// A result row as both stores read it: a column's value by name, `nil` when the column is absent,
/// NULL or of another type. `SQLiteStore` and `PostgresStore` each wrap their wrapper's row in
/// one (a struct holding the row: no copy, no allocation).
public protocol RecordRow {
    func text(_ column: String) -> String?
    func int(_ column: String) -> Int64?
    func bytes(_ column: String) -> [UInt8]?
}

/// A column that holds no value of its type: the row was not written by this code.
public struct CorruptRecord: Error, CustomStringConvertible {
    public let column: String

    public init(column: String) {
        self.column = column
    }

    public var description: String { "unexpected value in column \(column)" }
}

extension RecordRow {
    /// The column's text; throws ``CorruptRecord`` when it has none.
    @inlinable
    public func string(_ column: String) throws -> String {
        guard let value = text(column) else { throw CorruptRecord(column: column) }
        return value
    }

    /// The column's integer; throws ``CorruptRecord`` when it has none.
    @inlinable
    public func integer(_ column: String) throws -> Int64 {
        guard let value = int(column) else { throw CorruptRecord(column: column) }
        return value
    }
}
