/// How to open a ``Database``.
public struct DatabaseConfiguration: Sendable, Equatable {
    /// The database file; its directory is created if needed.
    public var path: String
    /// `PRAGMA synchronous` for the writer: `OFF`, `NORMAL` (default: durable
    /// against process crashes, may lose the last commits on power loss in WAL
    /// mode), `FULL` or `EXTRA`.
    public var synchronous: String
    /// How long a connection waits for another process's lock before `SQLITE_BUSY`.
    public var busyTimeoutMillis: Int32
    /// The most read-only connections opened (lazily) for ``Database/read(_:)``.
    public var readerCount: Int
    /// The most write jobs committed together in one transaction (1 disables batching).
    public var maxBatchSize: Int
    /// How long the writer may wait for more jobs before starting a batch: it waits
    /// only while fewer jobs are queued than the previous batch had, and not at all after
    /// a batch of one (a lone caller). 0 (default) never waits: batches form from whatever queued up
    /// while the previous batch was committing.
    public var maxBatchWaitMicros: Int
    /// How often a background thread copies the WAL into the database file (a passive
    /// checkpoint on its own connection), leaving little for the writer's automatic checkpoint
    /// (then every 4,000 pages) to copy. 0: no background thread, and the writer checkpoints
    /// every 1,000 pages (SQLite's default).
    public var checkpointIntervalMicros: Int = 50_000
    /// Counts the statements every connection of the database runs (tests); nil counts nothing.
    public var statementCounter: StatementCounter?

    /// A configuration; only `path` is required.
    public init(
        path: String,
        synchronous: String = "NORMAL",
        busyTimeoutMillis: Int32 = 5000,
        readerCount: Int = 4,
        maxBatchSize: Int = 64,
        maxBatchWaitMicros: Int = 0
    ) {
        self.path = path
        self.synchronous = synchronous
        self.busyTimeoutMillis = busyTimeoutMillis
        self.readerCount = readerCount
        self.maxBatchSize = maxBatchSize
        self.maxBatchWaitMicros = maxBatchWaitMicros
    }

    /// Rejects values that would misbehave; `synchronous` is checked against a
    /// fixed list because it is spliced into a PRAGMA.
    func validate() throws {
        let levels = ["OFF", "NORMAL", "FULL", "EXTRA", "0", "1", "2", "3"]
        guard levels.contains(synchronous.uppercased()) else {
            throw SQLiteError.misuse("synchronous must be one of OFF, NORMAL, FULL, EXTRA; got \(synchronous)")
        }
        guard readerCount >= 1 else { throw SQLiteError.misuse("readerCount must be at least 1") }
        guard maxBatchSize >= 1 else { throw SQLiteError.misuse("maxBatchSize must be at least 1") }
        guard maxBatchWaitMicros >= 0 else { throw SQLiteError.misuse("maxBatchWaitMicros must not be negative") }
        guard busyTimeoutMillis >= 0 else { throw SQLiteError.misuse("busyTimeoutMillis must not be negative") }
        guard !path.isEmpty, path != ":memory:" else {
            throw SQLiteError.misuse("a Database needs a file path (WAL readers cannot share an in-memory database)")
        }
    }
}
