/// One result row: values by column index or by column name.
///
/// Rows are fully materialized values (no live statement behind them), so they
/// are `Sendable` and may be returned out of ``Database/read(_:)`` and
/// ``Database/write(_:)``.
public struct Row: Sendable, Equatable {
    let columns: RowColumns
    /// The values in column order.
    public let values: [SQLiteValue]

    init(columns: RowColumns, values: [SQLiteValue]) {
        self.columns = columns
        self.values = values
    }

    /// A row built by hand, e.g. for fakes in tests.
    public init(columnNames: [String], values: [SQLiteValue]) {
        precondition(columnNames.count == values.count, "one value per column")
        self.init(columns: RowColumns(columnNames), values: values)
    }

    /// The column names in result order.
    public var columnNames: [String] { columns.names }

    /// The number of columns.
    public var count: Int { values.count }

    /// The value at a column index; traps when out of range, like an array.
    public subscript(_ index: Int) -> SQLiteValue { values[index] }

    /// The value of the named column (case-insensitive), or `.null` when the
    /// row has no such column; use ``hasColumn(_:)`` to tell the two apart.
    public subscript(_ name: String) -> SQLiteValue {
        columns.index(of: name).map { values[$0] } ?? .null
    }

    /// Whether the row has a column with this name.
    public func hasColumn(_ name: String) -> Bool { columns.index(of: name) != nil }

    /// The integer at a column index, `nil` when it is not an integer.
    public func int(_ index: Int) -> Int64? { self[index].integerValue }
    /// The integer in the named column, `nil` when absent or not an integer.
    public func int(_ name: String) -> Int64? { self[name].integerValue }

    /// The text at a column index, `nil` when it is not text.
    public func text(_ index: Int) -> String? { self[index].textValue }
    /// The text in the named column, `nil` when absent or not text.
    public func text(_ name: String) -> String? { self[name].textValue }

    /// The bytes at a column index, `nil` when it is not a blob.
    public func blob(_ index: Int) -> [UInt8]? { self[index].blobValue }
    /// The bytes in the named column, `nil` when absent or not a blob.
    public func blob(_ name: String) -> [UInt8]? { self[name].blobValue }

    /// The real (or integer, converted) at a column index.
    public func double(_ index: Int) -> Double? { self[index].realValue }
    /// The real (or integer, converted) in the named column.
    public func double(_ name: String) -> Double? { self[name].realValue }

    /// Rows are equal when their column names and values are.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        lhs.values == rhs.values && lhs.columns.names == rhs.columns.names
    }
}
