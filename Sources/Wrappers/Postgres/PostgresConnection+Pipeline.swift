import CPostgres

/// What one statement of a pipeline returned.
public struct PostgresCommandResult: Sendable, Equatable {
    /// The rows it yielded (`SELECT`, `… RETURNING`); empty for other commands.
    public let rows: [PostgresRow]
    /// Rows inserted, updated, deleted or selected (`PQcmdTuples`), 0 when none.
    public let affectedRows: Int

    public init(rows: [PostgresRow], affectedRows: Int) {
        self.rows = rows
        self.affectedRows = affectedRows
    }
}

/// Several statements in one network round trip (libpq pipeline mode).
///
/// Every statement is sent (`PQsendQueryPrepared` through the connection's
/// prepared-statement cache, preceded by `PQsendPrepare` the first time a SQL
/// text is seen), then one `PQpipelineSync`, then all results are read. The
/// server runs the statements in order. Without an explicit `BEGIN` they form
/// one implicit transaction that ends at the sync: all or nothing. With a
/// `BEGIN` among them the transaction stays open after the call (as with
/// ``transaction(isolation:_:)``, the caller commits or rolls back).
///
/// When a statement fails, the server skips the rest up to the sync; the call
/// throws that statement's error after reading every result, so the
/// connection is left idle (or, after an explicit `BEGIN`, in a failed
/// transaction awaiting `ROLLBACK`).
///
/// Meant for small batches (a transaction's reads or writes, a few kB): the
/// connection stays in blocking mode, so a batch whose results do not fit in
/// the socket buffers while it is still being sent could stall.
extension PostgresConnection {
    /// Runs `statements` in one round trip and returns each one's rows.
    public func pipeline(_ statements: [(sql: String, params: [PostgresValue])]) throws -> [[PostgresRow]] {
        try pipelineResults(statements).map(\.rows)
    }

    /// Runs `statements` in one round trip and returns each one's rows and affected-row count.
    public func pipelineResults(_ statements: [(sql: String, params: [PostgresValue])]) throws -> [PostgresCommandResult] {
        guard !statements.isEmpty else { return [] }
        let handle = try openHandle()
        guard PQpipelineStatus(handle) == PQ_PIPELINE_OFF else {
            throw PostgresError(kind: .usage, message: "a pipeline is already running on this connection")
        }
        // Encode everything first: a value PostgreSQL cannot hold fails before anything is sent.
        let encoded = try statements.map { statement in
            (sql: statement.sql, parameters: try PostgresParameters(statement.params, sql: statement.sql))
        }
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresResult.error(nil, connection: handle, sql: nil)
        }
        // Not after `close()` below (out of step): the handle is freed by then.
        defer { if self.handle == handle { _ = PQexitPipelineMode(handle) } }

        let (commands, sendFailure) = sendPipeline(encoded, on: handle)
        let synced = PQpipelineSync(handle) == 1
        counter?.count(statements: statements.count, roundTrips: 1)
        let (results, firstError) = try readPipeline(commands, expecting: statements.count, on: handle)
        if synced, PQstatus(handle) != CONNECTION_BAD { try readSyncPoint(on: handle, firstError: firstError) }
        if let error = firstError {
            forgetStaleStatements(after: error)
            throw error
        }
        if let sendFailure { throw sendFailure }
        guard synced, PQstatus(handle) != CONNECTION_BAD, results.count == statements.count else {
            throw PostgresResult.error(nil, connection: handle, sql: nil)
        }
        return results
    }

    /// Queues every statement (a prepare first for a SQL text not yet cached), stopping at the
    /// first that libpq refuses to send; returns the commands queued and that refusal.
    private func sendPipeline(
        _ encoded: [(sql: String, parameters: PostgresParameters)], on handle: OpaquePointer
    ) -> (commands: [PipelineCommand], sendFailure: PostgresError?) {
        var commands: [PipelineCommand] = []
        var preparing: [StatementKey: String] = [:]
        for (sql, parameters) in encoded {
            let key = StatementKey(sql: sql, types: parameters.types)
            var name = self.statements[key] ?? preparing[key]
            if name == nil, Self.isPreparable(sql), self.statements.count + preparing.count < Self.statementCacheLimit {
                statementCounter += 1
                let fresh = "s\(statementCounter)"
                let sent = key.types.withUnsafeBufferPointer { types in
                    PQsendPrepare(handle, fresh, sql, parameters.count, types.baseAddress)
                }
                guard sent == 1 else { return (commands, PostgresResult.error(nil, connection: handle, sql: sql)) }
                commands.append(.prepare(key, name: fresh))
                preparing[key] = fresh
                name = fresh
            }
            let sent = parameters.withPointers { values, lengths, formats -> Int32 in
                if let name {
                    return PQsendQueryPrepared(handle, name, parameters.count, values, lengths, formats, 0)
                }
                return key.types.withUnsafeBufferPointer { types in
                    PQsendQueryParams(handle, sql, parameters.count, types.baseAddress, values, lengths, formats, 0)
                }
            }
            guard sent == 1 else { return (commands, PostgresResult.error(nil, connection: handle, sql: sql)) }
            commands.append(.execute(sql: sql))
        }
        return (commands, nil)
    }

    /// Reads every queued command's results (each ends with a NULL), caching the statements that
    /// were prepared; returns the executes' results and the first error.
    private func readPipeline(
        _ commands: [PipelineCommand], expecting count: Int, on handle: OpaquePointer
    ) throws -> (results: [PostgresCommandResult], firstError: PostgresError?) {
        var results: [PostgresCommandResult] = []
        results.reserveCapacity(count)
        var firstError: PostgresError?
        for command in commands {
            let (outcome, failure, ran) = try readCommand(command, on: handle)
            switch command {
            case .prepare(let key, let name):
                if ran { self.statements[key] = name }
            case .execute:
                if let outcome { results.append(outcome) }
            }
            if let failure, firstError == nil { firstError = failure }
            if PQstatus(handle) == CONNECTION_BAD { break }
        }
        return (results, firstError)
    }

    /// The results of one queued command: its rows (an execute), its error, and whether it ran
    /// (not skipped after an earlier failure).
    private func readCommand(
        _ command: PipelineCommand, on handle: OpaquePointer
    ) throws -> (outcome: PostgresCommandResult?, failure: PostgresError?, ran: Bool) {
        var outcome: PostgresCommandResult?
        var failure: PostgresError?
        var ran = false
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_PIPELINE_ABORTED:
                break
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                ran = true
                if case .execute = command {
                    outcome = PostgresCommandResult(rows: PostgresResult.rows(result), affectedRows: PostgresResult.affectedRows(result))
                }
            default:
                do {
                    try PostgresResult.check(result, connection: handle, sql: command.sql)
                } catch let error as PostgresError {
                    failure = error
                }
            }
        }
        return (outcome, failure, ran)
    }

    /// The sync point; anything else here means the stream is out of step: drop the connection.
    private func readSyncPoint(on handle: OpaquePointer, firstError: PostgresError?) throws {
        guard let result = PQgetResult(handle) else { return }
        let status = PQresultStatus(result)
        PQclear(result)
        if status != PGRES_PIPELINE_SYNC {
            close()
            throw firstError ?? PostgresError(kind: .connection, message: "pipeline out of step: expected a sync point")
        }
    }

    /// Transaction control is sent unprepared (it cannot be a named statement).
    static func isPreparable(_ sql: String) -> Bool {
        let head = sql.prefix(9).uppercased()
        return !(head.hasPrefix("BEGIN") || head.hasPrefix("COMMIT") || head.hasPrefix("ROLLBACK")
            || head.hasPrefix("START") || head.hasPrefix("SAVEPOINT") || head.hasPrefix("RELEASE") || head.hasPrefix("SET "))
    }

    /// After `26000` (statements deallocated) or "cached plan must not change result type",
    /// empties the cache so the next call prepares afresh; the caller decides whether to retry.
    private func forgetStaleStatements(after error: PostgresError) {
        if error.sqlState == "26000"
            || (error.sqlState == "0A000" && error.message.contains("cached plan must not change result type"))
        {
            statements.removeAll()
        }
    }
}

/// A command queued in a pipeline, in order: a prepare (its result only tells whether it worked)
/// or an execute.
private enum PipelineCommand {
    case prepare(StatementKey, name: String)
    case execute(sql: String)

    var sql: String {
        switch self {
        case .prepare(let key, _): key.sql
        case .execute(let text): text
        }
    }
}
