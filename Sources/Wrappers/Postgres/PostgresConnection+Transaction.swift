import CPostgres

/// Transactions around a closure: commit when it returns, roll back when it throws.
extension PostgresConnection {
    /// Runs `body` in a transaction: `BEGIN`, then `COMMIT` when `body`
    /// returns, or `ROLLBACK` and rethrow when it throws.
    ///
    /// Nested calls (or a call inside a transaction begun by hand) use a
    /// savepoint, so an inner failure undoes only the inner work. If a statement
    /// failed inside `body` but `body` caught the error and returned, the
    /// transaction is rolled back and this throws `25P02`, rather than
    /// reporting a commit the server did not do. `isolation` applies to the
    /// outermost transaction only.
    @discardableResult
    public func transaction<T>(
        isolation: PostgresIsolationLevel? = nil, _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        if transactionDepth > 0 || isInTransaction {
            return try savepoint(body)
        }
        return try scoped(
            begin: isolation.map { "BEGIN ISOLATION LEVEL \($0.rawValue)" } ?? "BEGIN", rollback: "ROLLBACK", end: "COMMIT", body)
    }

    private func savepoint<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let name = "pv_savepoint_\(transactionDepth)"
        return try scoped(
            begin: "SAVEPOINT \(name)", rollback: "ROLLBACK TO SAVEPOINT \(name)", end: "RELEASE SAVEPOINT \(name)", body)
    }

    /// Runs `body` between `begin` and `end`; on an error, or when the server aborted the
    /// transaction under it, runs `rollback` instead of `end`.
    private func scoped<T>(begin: String, rollback: String, end: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        try execute(begin)
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        let value: T
        do {
            value = try body(self)
        } catch {
            rollbackQuietly(rollback)
            throw error
        }
        if let handle, PQtransactionStatus(handle) == PQTRANS_INERROR {
            rollbackQuietly(rollback)
            throw Self.abortedError
        }
        try execute(end)
        return value
    }

    /// Rolls back, ignoring failures: the error that caused it is the one to report,
    /// and a broken connection has no transaction left anyway.
    private func rollbackQuietly(_ sql: String) {
        guard let handle, PQstatus(handle) == CONNECTION_OK else { return }
        PQclear(PQexec(handle, sql))
    }

    private static let abortedError = PostgresError(
        kind: .server, sqlState: "25P02",
        message: "a statement in the transaction failed and its error was caught inside the body; rolled back")
}
