/// A SQLite database in WAL mode: one group-committing writer plus a pool of readers.
///
/// Meant to be shared by many threads (e.g. an HTTP server's worker threads).
/// ``write(_:)`` queues the body for the one read-write connection, which
/// commits the bodies queued at the same time in one transaction: one WAL
/// commit for many requests, run by one of their callers' threads in turn. ``read(_:)`` runs on the calling thread with a pooled
/// read-only connection, in parallel with the writer. Both take synchronous
/// closures, so no connection is ever held across an `await`; from async
/// code, call them off the cooperative pool.
public final class Database: Sendable {
    /// The configuration the database was opened with.
    public let configuration: DatabaseConfiguration
    /// The migration versions applied when this instance opened the file.
    public let appliedMigrations: [Int]
    private let writer: Writer
    private let readers: ReaderPool
    private let checkpointer: Checkpointer?

    /// Opens (creating the file and its directory if needed) the database,
    /// switches it to WAL, sets `synchronous`, runs `migrations` on the writer
    /// connection, and starts accepting writes.
    public init(_ configuration: DatabaseConfiguration, migrations: [Migration]) throws {
        try configuration.validate()
        try FileSystem.createParentDirectory(of: configuration.path)
        let connection = try Connection(
            path: configuration.path, readOnly: false, busyTimeoutMillis: configuration.busyTimeoutMillis,
            counter: configuration.statementCounter)
        let mode = try connection.queryOne("PRAGMA journal_mode = WAL")?.text(0)
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError.misuse("could not enable WAL (journal_mode is \(mode ?? "unknown"))")
        }
        try connection.execute("PRAGMA synchronous = \(configuration.synchronous)")
        // The writer's hot pages (indexes, limit logs, the outbox tail) stay in its own cache
        // instead of being re-read through pread on every transaction.
        try connection.execute("PRAGMA cache_size = -8192")
        // Every job of a batch runs in a savepoint, so each batch fills a statement journal (the
        // pages a job changes, kept to undo that job). Past 64 KiB SQLite spills it to a temp file
        // (open, write, close, unlink each batch); in memory it is a list of 1 KiB chunks freed at
        // commit. It never serves crash recovery (that is the WAL), so durability is unchanged.
        try connection.execute("PRAGMA temp_store = MEMORY")
        self.appliedMigrations = try Migrator.migrate(connection, migrations)
        self.checkpointer = Self.checkpointer(for: configuration, writer: connection)
        self.configuration = configuration
        self.writer = Writer(
            connection: connection,
            maxBatchSize: configuration.maxBatchSize,
            maxBatchWaitMicros: configuration.maxBatchWaitMicros)
        self.readers = ReaderPool(
            path: configuration.path,
            capacity: configuration.readerCount,
            busyTimeoutMillis: configuration.busyTimeoutMillis,
            counter: configuration.statementCounter)
        do {
            try writer.start()
        } catch {
            checkpointer?.stop()
            throw error
        }
    }

    /// Copies the WAL into the database on its own thread (``Checkpointer``), so the writer's own
    /// automatic checkpoints find little left to copy; `nil` when disabled or the thread cannot start.
    private static func checkpointer(for configuration: DatabaseConfiguration, writer connection: Connection) -> Checkpointer? {
        guard configuration.checkpointIntervalMicros > 0,
              let checkpointer = try? Checkpointer(
                path: configuration.path, busyTimeoutMillis: configuration.busyTimeoutMillis,
                synchronous: configuration.synchronous, intervalMicros: configuration.checkpointIntervalMicros)
        else { return nil }
        // The writer's own checkpoint then only has to let the WAL restart now and then.
        try? connection.execute("PRAGMA wal_autocheckpoint = 4000")
        return checkpointer
    }

    deinit {
        close()
    }

    /// Runs `body` (on this or another caller's thread) inside a transaction shared with other
    /// concurrent writes, and returns its result once that transaction committed.
    ///
    /// - Each body runs in its own savepoint: if it throws, only its changes are
    ///   rolled back and only this caller gets the error.
    /// - If the commit fails, every caller of the batch gets the error. After
    ///   `SQLITE_BUSY` the whole batch is retried once, so a body may run twice:
    ///   keep side effects inside the database.
    /// - Calling `write` from inside a body runs inline (nested savepoint) rather
    ///   than deadlocking. Do not block a body on another thread's `write`.
    /// - Do not `BEGIN`, `COMMIT` or `ROLLBACK` in a body; use `SAVEPOINT` freely.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) throws -> T {
        let value = try writer.submit { connection -> any Sendable in try body(connection) }
        guard let result = value as? T else { preconditionFailure("write returned \(type(of: value)), not \(T.self)") }
        return result
    }

    /// Runs `body` on the calling thread with a read-only connection from the
    /// pool (waiting if all `readerCount` are busy). Wrap several queries in
    /// `BEGIN` … `COMMIT` for one consistent snapshot; uncommitted writes of a
    /// concurrent write body are not visible. Inside a write body, query the
    /// body's own connection instead of calling `read`.
    public func read<T: Sendable>(_ body: @Sendable (Connection) throws -> T) throws -> T {
        try readers.withConnection(body)
    }

    /// Closes the readers (in-use ones when their body returns), finishes the
    /// queued writes and closes the writer connection.
    /// Idempotent; later `read`/`write` calls throw.
    ///
    /// Readers go first so that the read-write connection is normally the last
    /// one: only then does SQLite checkpoint and delete the `-wal` file.
    public func close() {
        checkpointer?.stop()
        readers.close()
        writer.stop()
    }

    /// Group-commit counters: batches, jobs, failures, queue depth.
    public var statistics: DatabaseStatistics { writer.statistics }
}
