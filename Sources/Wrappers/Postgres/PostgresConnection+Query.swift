import CPostgres

/// Statements with parameters, through the prepared-statement cache, and
/// multi-statement scripts.
///
/// The first call with a given SQL text prepares it (`PQprepare`, named `s1`,
/// `s2`, …); later calls only bind and execute (`PQexecPrepared`): one round
/// trip either way, but the server parses and plans once per connection.
/// Parameters travel separately from the SQL, so values are never interpolated.
extension PostgresConnection {
    /// Runs one statement and returns the rows it yields (`SELECT`, `… RETURNING`).
    public func query(_ sql: String, _ params: [PostgresValue] = []) throws -> [PostgresRow] {
        try perform(sql, params, PostgresResult.rows)
    }

    /// Runs one statement and returns its first row, or `nil` when it yields none.
    public func queryFirst(_ sql: String, _ params: [PostgresValue] = []) throws -> PostgresRow? {
        try query(sql, params).first
    }

    /// Runs one statement and returns how many rows it inserted, updated,
    /// deleted or selected (`PQcmdTuples`), e.g. to tell whether a
    /// conditional `UPDATE … WHERE used_at IS NULL` won.
    @discardableResult
    public func run(_ sql: String, _ params: [PostgresValue] = []) throws -> Int {
        try perform(sql, params, PostgresResult.affectedRows)
    }

    /// Runs a script of one or more statements separated by `;` (`PQexec`,
    /// simple protocol, no parameters), e.g. a migration. Without explicit
    /// `BEGIN`/`COMMIT` the whole script runs in one implicit transaction.
    public func execute(_ sql: String) throws {
        let handle = try openHandle()
        counter?.count(statements: 1, roundTrips: 1)
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try PostgresResult.check(result, connection: handle, sql: sql)
    }

    /// Encodes, runs (retrying once when a cached statement went stale) and decodes.
    private func perform<R>(_ sql: String, _ params: [PostgresValue], _ decode: (OpaquePointer) -> R) throws -> R {
        let handle = try openHandle()
        let parameters = try PostgresParameters(params, sql: sql)
        let key = StatementKey(sql: sql, types: parameters.types)
        var retried = false
        while true {
            do {
                return try parameters.withPointers { values, lengths, formats in
                    let result = try execute(key, handle, parameters.count, values, lengths, formats)
                    defer { PQclear(result) }
                    return decode(result)
                }
            } catch let error as PostgresError where !retried && forgetStaleStatement(key, after: error, handle) {
                retried = true
            }
        }
    }

    /// Executes through the cache; returns a successful result the caller clears.
    private func execute(
        _ key: StatementKey, _ handle: OpaquePointer, _ count: Int32,
        _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ lengths: UnsafePointer<Int32>?,
        _ formats: UnsafePointer<Int32>?
    ) throws -> OpaquePointer {
        let result: OpaquePointer?
        counter?.count(statements: 1, roundTrips: statements[key] == nil && statements.count < Self.statementCacheLimit ? 2 : 1)
        if let name = statements[key] {
            result = PQexecPrepared(handle, name, count, values, lengths, formats, 0)
        } else if statements.count < Self.statementCacheLimit {
            let name = "s\(statementCounter + 1)"
            let prepared = key.types.withUnsafeBufferPointer { types in
                PQprepare(handle, name, key.sql, count, types.baseAddress)
            }
            defer { PQclear(prepared) }
            try PostgresResult.check(prepared, connection: handle, sql: key.sql)
            statementCounter += 1
            statements[key] = name
            result = PQexecPrepared(handle, name, count, values, lengths, formats, 0)
        } else {
            result = key.types.withUnsafeBufferPointer { types in
                PQexecParams(handle, key.sql, count, types.baseAddress, values, lengths, formats, 0)
            }
        }
        do {
            try PostgresResult.check(result, connection: handle, sql: key.sql)
        } catch {
            PQclear(result)
            throw error
        }
        return result!
    }

    /// After a failure caused by a stale cache entry, forgets it and says
    /// whether running again is safe (only outside a transaction, since the
    /// error aborted any open one):
    /// - `26000`: the statement is gone (`DEALLOCATE ALL` or `DISCARD ALL` ran);
    /// - `0A000` "cached plan must not change result type": a table the
    ///   statement reads changed shape (`ALTER TABLE`).
    private func forgetStaleStatement(_ key: StatementKey, after error: PostgresError, _ handle: OpaquePointer) -> Bool {
        guard let name = statements[key] else { return false }
        let stale = error.sqlState == "26000"
            || (error.sqlState == "0A000" && error.message.contains("cached plan must not change result type"))
        guard stale else { return false }
        if error.sqlState == "26000" {
            statements.removeAll()
        } else {
            statements[key] = nil
            if PQtransactionStatus(handle) == PQTRANS_IDLE {
                PQclear(PQexec(handle, "DEALLOCATE \(name)"))  // our own generated name, not user input
            }
        }
        return PQtransactionStatus(handle) == PQTRANS_IDLE
    }
}
