import CSQLite

/// One SQLite connection with a prepared-statement cache.
///
/// Not `Sendable`: it is opened with `SQLITE_OPEN_NOMUTEX`, so it must be used
/// by one thread at a time. ``Database`` hands connections to closures on the
/// thread that owns them at that moment; keep a connection inside its closure.
/// The connection is closed (cached statements finalized, `sqlite3_close_v2`)
/// when the object is released.
public final class Connection {
    let handle: OpaquePointer
    /// Prepared statements keyed by their SQL text.
    var statements: [String: Statement] = [:]
    /// Counts what this connection runs, when a test asked for it.
    let counter: StatementCounter?

    /// Beyond this many cached statements the cache is emptied, which bounds
    /// memory when callers build SQL dynamically.
    static let statementCacheLimit = 256

    /// Opens (and creates, unless `readOnly`) the database file at `path`,
    /// sets the busy timeout and turns foreign-key enforcement on.
    public init(path: String, readOnly: Bool = false, busyTimeoutMillis: Int32 = 5000, counter: StatementCounter? = nil) throws {
        SQLiteLibrary.configure()
        self.counter = counter
        let access = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, access | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            let extended = opened.map { sqlite3_extended_errcode($0) } ?? code
            sqlite3_close_v2(opened)
            throw SQLiteError(code: code, extendedCode: extended, message: "cannot open \(path): \(message)")
        }
        handle = opened
        try check(sqlite3_busy_timeout(handle, busyTimeoutMillis), sql: nil)
        try execute("PRAGMA foreign_keys = ON")
        // No memory map (SQLite's default): mapped database pages count as resident memory and
        // grew the service's peak RSS with the file (71 MiB vs 54 MiB after the same benchmark),
        // for no measurable CPU gain over SQLite's page cache.
    }

    deinit {
        statements.removeAll()  // finalizes each statement before the handle goes
        sqlite3_close_v2(handle)
    }

    /// Runs one or more `;`-separated statements without parameters
    /// (`sqlite3_exec`): schema scripts, PRAGMAs, transaction control.
    public func execute(_ sql: String) throws {
        counter?.countScript()
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql: sql)
    }

    /// The rowid of the most recent successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether a transaction is open (`sqlite3_get_autocommit` is off).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// How many prepared statements are cached (for diagnostics and tests).
    public var cachedStatementCount: Int { statements.count }

    /// Throws the connection's current error when `code` is not OK.
    func check(_ code: Int32, sql: String?) throws {
        if code != SQLITE_OK { throw error(code, sql: sql) }
    }

    /// The connection's current error message for a failed call.
    func error(_ code: Int32, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        // Keep the extended code only when it belongs to this failure.
        let matches = (extended & 0xFF) == (code & 0xFF)
        return SQLiteError(
            code: code,
            extendedCode: matches ? extended : code,
            message: String(cString: sqlite3_errmsg(handle)),
            sql: sql
        )
    }

    /// The cached statement for `sql`, prepared on first use.
    ///
    /// Exactly one statement is allowed; trailing whitespace and comments are fine.
    func prepared(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        var hasMoreStatements = false
        let code = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let flags = UInt32(SQLITE_PREPARE_PERSISTENT)
            let code = sqlite3_prepare_v3(handle, text, -1, flags, &statement, &tail)
            if code == SQLITE_OK, let tail, tail.pointee != 0 {
                // Prepare the remainder: only comments and whitespace yield no statement.
                var extra: OpaquePointer?
                if sqlite3_prepare_v3(handle, tail, -1, 0, &extra, nil) != SQLITE_OK || extra != nil {
                    hasMoreStatements = true
                }
                sqlite3_finalize(extra)
            }
            return code
        }
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
        guard let statement else { throw SQLiteError.misuse("empty statement", sql: sql) }
        guard !hasMoreStatements else {
            sqlite3_finalize(statement)
            throw SQLiteError.misuse("more than one statement: use execute(_:) for scripts", sql: sql)
        }
        if statements.count >= Self.statementCacheLimit { statements.removeAll() }
        let prepared = Statement(handle: statement, sql: sql)
        statements[sql] = prepared
        return prepared
    }
}
