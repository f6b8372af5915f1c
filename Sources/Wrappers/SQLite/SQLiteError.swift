import CSQLite

/// A failed SQLite call: every non-OK result code becomes one of these.
///
/// Carries the primary and extended result codes, SQLite's message and the SQL
/// that failed, so logs say what went wrong without a debugger.
public struct SQLiteError: Error, CustomStringConvertible, Equatable {
    /// The primary result code (`SQLITE_BUSY` = 5, `SQLITE_CONSTRAINT` = 19, ...).
    public let code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` = 2067, ...).
    public let extendedCode: Int32
    /// `sqlite3_errmsg` at the time of the failure, or the wrapper's explanation.
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?

    /// Builds an error; the primary code is derived from `code` (low 8 bits).
    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code & 0xFF
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    /// Another connection (or process) held the lock past the busy timeout.
    public var isBusy: Bool { code == SQLITE_BUSY }

    /// A UNIQUE, NOT NULL, CHECK, FOREIGN KEY or PRIMARY KEY constraint failed.
    public var isConstraint: Bool { code == SQLITE_CONSTRAINT }

    /// `SQLite error 19/2067 (constraint failed): UNIQUE constraint failed: t.x [SQL: INSERT ...]`.
    public var description: String {
        let name = String(cString: sqlite3_errstr(code))
        var text = "SQLite error \(code)/\(extendedCode) (\(name)): \(message)"
        if let sql { text += " [SQL: \(sql)]" }
        return text
    }

    /// The error thrown by calls made after ``Database/close()``.
    static let closed = SQLiteError(code: SQLITE_MISUSE, message: "database is closed")

    /// A misuse of the wrapper detected before reaching SQLite.
    static func misuse(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(code: SQLITE_MISUSE, message: message, sql: sql)
    }
}
