import CSQLite

/// A prepared statement owned by one ``Connection``'s cache; finalized in `deinit`.
///
/// Not thread-safe: it belongs to its connection, which one thread uses at a time.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    let parameterCount: Int
    /// Whether the statement cannot write (SELECT, most PRAGMA reads).
    let isReadOnly: Bool
    /// BEGIN, COMMIT, ROLLBACK, SAVEPOINT or RELEASE: counted apart from the SQL a store issues.
    let isTransactionControl: Bool
    /// The result columns, built on first use and shared by every row the statement yields
    /// until SQLite re-prepares it (after a schema change the columns may differ).
    private var columns: RowColumns?
    /// `SQLITE_STMTSTATUS_REPREPARE` when `columns` was built.
    private var columnsPreparation: Int32 = 0

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
        self.parameterCount = Int(sqlite3_bind_parameter_count(handle))
        self.isReadOnly = sqlite3_stmt_readonly(handle) != 0
        let verb = sql.prefix { $0 != " " }.uppercased()
        self.isTransactionControl = ["BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"].contains(verb)
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Makes the statement ready for its next use. Both calls only report the
    /// previous step's error again (already thrown), so results are ignored.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds positional parameters; returns the first non-OK code, or OK.
    func bind(_ parameters: [SQLiteValue]) -> Int32 {
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let number):
                code = sqlite3_bind_int64(handle, index, number)
            case .real(let number):
                code = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                let byteCount = sqlite3_uint64(text.utf8.count)
                code = text.withCString { csqlite_bind_text(handle, index, $0, byteCount) }
            case .blob(let bytes):
                // A NULL pointer would bind SQL NULL: an empty blob needs zeroblob(0).
                if bytes.isEmpty {
                    code = sqlite3_bind_zeroblob(handle, index, 0)
                } else {
                    code = bytes.withUnsafeBytes {
                        csqlite_bind_blob(handle, index, $0.baseAddress, sqlite3_uint64($0.count))
                    }
                }
            }
            if code != SQLITE_OK { return code }
        }
        return SQLITE_OK
    }

    /// The result column names of the current step.
    func columnNames() -> RowColumns {
        let count = sqlite3_column_count(handle)
        // SQLite re-prepares a statement transparently when the schema changed, and counts it.
        let preparation = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
        if let columns, columnsPreparation == preparation, columns.names.count == Int(count) { return columns }
        var names: [String] = []
        names.reserveCapacity(Int(count))
        for index in 0..<count {
            names.append(sqlite3_column_name(handle, index).map { String(cString: $0) } ?? "")
        }
        let built = RowColumns(names)
        columns = built
        columnsPreparation = preparation
        return built
    }

    /// All values of the current row.
    func rowValues() -> [SQLiteValue] {
        let count = sqlite3_column_count(handle)
        var values: [SQLiteValue] = []
        values.reserveCapacity(Int(count))
        for index in 0..<count {
            values.append(value(at: index))
        }
        return values
    }

    /// One value of the current row, copied out of SQLite's buffers.
    private func value(at index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            // Text first, then its byte count (the order SQLite documents).
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let bytes = sqlite3_column_blob(handle, index)
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let bytes, count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }
}
