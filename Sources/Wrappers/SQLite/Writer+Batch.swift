/// Group commit: one transaction per batch, one savepoint per job.
extension Writer {
    typealias Outcome = Result<any Sendable, any Error>

    /// Runs `batch` in one `BEGIN IMMEDIATE … COMMIT`. A job that throws is
    /// rolled back to its savepoint and gets its own error; the others are
    /// unaffected. When the transaction itself fails, every job gets that error,
    /// after one retry of the whole batch if the failure was `SQLITE_BUSY`.
    func perform(_ batch: [WriteJob], on connection: Connection) -> [Outcome] {
        var retried = false
        while true {
            do {
                let outcomes = try transaction(batch, on: connection)
                lock.withLock { stats.batches += 1 }
                return outcomes
            } catch {
                if connection.isInTransaction { try? connection.execute("ROLLBACK") }
                if !retried, let sqliteError = error as? SQLiteError, sqliteError.isBusy {
                    retried = true
                    lock.withLock { stats.busyRetries += 1 }
                    continue
                }
                lock.withLock { stats.failedBatches += 1 }
                return Array(repeating: .failure(error), count: batch.count)
            }
        }
    }

    /// One attempt. Throws only for failures of the transaction as a whole.
    private func transaction(_ batch: [WriteJob], on connection: Connection) throws -> [Outcome] {
        try connection.run("BEGIN IMMEDIATE")
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(batch.count)
        for job in batch {
            try connection.run("SAVEPOINT batch_job")
            do {
                let value = try job.work(connection)
                guard connection.isInTransaction else { throw Self.endedTransaction }
                try connection.run("RELEASE batch_job")
                outcomes.append(.success(value))
            } catch {
                // SQLite rolls the whole transaction back on some errors (disk
                // full, I/O error): then the batch cannot commit.
                guard connection.isInTransaction else { throw error }
                try connection.run("ROLLBACK TO batch_job")
                try connection.run("RELEASE batch_job")
                outcomes.append(.failure(error))
            }
        }
        try connection.run("COMMIT")
        return outcomes
    }

    /// Runs a `write` made from inside a write body, in a nested savepoint of the
    /// transaction already open on this (the writer) thread.
    func runNested(_ work: @Sendable (Connection) throws -> any Sendable) throws -> any Sendable {
        guard let connection, connection.isInTransaction else {
            preconditionFailure("nested write outside of a write body")
        }
        try connection.run("SAVEPOINT nested_write")
        do {
            let value = try work(connection)
            guard connection.isInTransaction else { throw Self.endedTransaction }
            try connection.run("RELEASE nested_write")
            return value
        } catch {
            if connection.isInTransaction {
                try? connection.execute("ROLLBACK TO nested_write; RELEASE nested_write")
            }
            throw error
        }
    }

    /// A write body ran COMMIT/ROLLBACK itself, which breaks group commit.
    private static let endedTransaction = SQLiteError.misuse(
        "a write body must not end the transaction (COMMIT/ROLLBACK/RELEASE); the writer manages it")
}
