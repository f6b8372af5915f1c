/// One result row: values by column index or by column name.
///
/// Rows are fully decoded values (no `PGresult` behind them), so they are
/// `Sendable` and outlive the connection that produced them.
public struct PostgresRow: Sendable, Equatable {
    let columns: PostgresColumns
    /// The values in column order.
    public let values: [PostgresValue]

    init(columns: PostgresColumns, values: [PostgresValue]) {
        self.columns = columns
        self.values = values
    }

    /// A row built by hand, e.g. for fakes in tests.
    public init(columnNames: [String], values: [PostgresValue]) {
        precondition(columnNames.count == values.count, "one value per column")
        self.init(columns: PostgresColumns(columnNames), values: values)
    }

    /// The column names in result order.
    public var columnNames: [String] { columns.names }

    /// The number of columns.
    public var count: Int { values.count }

    /// The value at a column index; traps when out of range, like an array.
    public subscript(_ index: Int) -> PostgresValue { values[index] }

    /// The value of the named column (exact, then case-insensitive), or `.null`
    /// when the row has no such column; use ``hasColumn(_:)`` to tell the two apart.
    public subscript(column name: String) -> PostgresValue {
        columns.index(of: name).map { values[$0] } ?? .null
    }

    /// The value of the named column; same as ``subscript(column:)``.
    public subscript(_ name: String) -> PostgresValue { self[column: name] }

    /// Whether the row has a column with this name.
    public func hasColumn(_ name: String) -> Bool { columns.index(of: name) != nil }

    /// The integer at a column index, `nil` when it is not an integer.
    public func int(_ index: Int) -> Int64? { self[index].intValue }
    /// The integer in the named column, `nil` when absent or not an integer.
    public func int(_ name: String) -> Int64? { self[column: name].intValue }

    /// The text at a column index, `nil` when it is not text.
    public func text(_ index: Int) -> String? { self[index].textValue }
    /// The text in the named column, `nil` when absent or not text.
    public func text(_ name: String) -> String? { self[column: name].textValue }

    /// The bytes at a column index, `nil` when it is not `bytea`.
    public func bytes(_ index: Int) -> [UInt8]? { self[index].bytesValue }
    /// The bytes in the named column, `nil` when absent or not `bytea`.
    public func bytes(_ name: String) -> [UInt8]? { self[column: name].bytesValue }

    /// The boolean at a column index, `nil` when it is not a boolean.
    public func bool(_ index: Int) -> Bool? { self[index].boolValue }
    /// The boolean in the named column, `nil` when absent or not a boolean.
    public func bool(_ name: String) -> Bool? { self[column: name].boolValue }

    /// The double (or integer, converted) at a column index.
    public func double(_ index: Int) -> Double? { self[index].doubleValue }
    /// The double (or integer, converted) in the named column.
    public func double(_ name: String) -> Double? { self[column: name].doubleValue }

    /// Rows are equal when their column names and values are.
    public static func == (lhs: PostgresRow, rhs: PostgresRow) -> Bool {
        lhs.values == rhs.values && lhs.columns.names == rhs.columns.names
    }
}
