import CSQLite

/// Parameterized statements through the prepared-statement cache.
///
/// Each call binds, steps and then resets the statement and clears its bindings,
/// so a cached statement never holds a transaction or a read snapshot open.
extension Connection {
    /// Runs one statement and returns how many rows it changed
    /// (`sqlite3_changes`; meaningful for INSERT, UPDATE and DELETE).
    /// Rows a statement yields (e.g. `RETURNING`) are stepped through and dropped.
    @discardableResult
    public func run(_ sql: String, _ params: [SQLiteValue] = []) throws -> Int {
        let statement = try prepared(sql)
        counter?.count(statement)
        defer { statement.reset() }
        try bind(params, to: statement)
        while try step(statement) {}
        return Int(sqlite3_changes64(handle))
    }

    /// Runs one statement and returns all rows it yields (`SELECT`, `RETURNING`).
    public func query(_ sql: String, _ params: [SQLiteValue] = []) throws -> [Row] {
        let statement = try prepared(sql)
        counter?.count(statement)
        defer { statement.reset() }
        try bind(params, to: statement)
        var rows: [Row] = []
        var columns: RowColumns?
        while try step(statement) {
            let names = columns ?? statement.columnNames()
            columns = names
            rows.append(Row(columns: names, values: statement.rowValues()))
        }
        return rows
    }

    /// Runs one statement and returns its first row, or `nil` when it yields none.
    ///
    /// A read-only statement stops after the first row; a writing one
    /// (`INSERT … RETURNING`) is still stepped to completion.
    public func queryOne(_ sql: String, _ params: [SQLiteValue] = []) throws -> Row? {
        let statement = try prepared(sql)
        counter?.count(statement)
        defer { statement.reset() }
        try bind(params, to: statement)
        guard try step(statement) else { return nil }
        let row = Row(columns: statement.columnNames(), values: statement.rowValues())
        if !statement.isReadOnly {
            while try step(statement) {}
        }
        return row
    }

    /// Binds after checking that the parameter count matches the SQL.
    private func bind(_ params: [SQLiteValue], to statement: Statement) throws {
        guard params.count == statement.parameterCount else {
            throw SQLiteError(
                code: SQLITE_RANGE,
                message: "statement has \(statement.parameterCount) parameters, \(params.count) given",
                sql: statement.sql
            )
        }
        let code = statement.bind(params)
        if code != SQLITE_OK { throw error(code, sql: statement.sql) }
    }

    /// One `sqlite3_step`: `true` on a row, `false` when done, throws otherwise.
    private func step(_ statement: Statement) throws -> Bool {
        switch sqlite3_step(statement.handle) {
        case SQLITE_ROW:
            counter?.countRow()
            return true
        case SQLITE_DONE: return false
        case let code: throw error(code, sql: statement.sql)
        }
    }
}
