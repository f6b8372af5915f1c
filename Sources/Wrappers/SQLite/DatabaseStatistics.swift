/// Counters of the group-commit writer, for metrics and tests.
///
/// `jobs / batches` is the average batch size: how many `write` calls shared
/// one transaction (and one WAL commit).
public struct DatabaseStatistics: Sendable, Equatable {
    /// Transactions committed by the writer.
    public var batches = 0
    /// Batches whose transaction failed (every job in them got the error).
    public var failedBatches = 0
    /// `write` calls run by the writer (nested calls not counted).
    public var jobs = 0
    /// Jobs whose caller got an error (own failure or a failed batch).
    public var failedJobs = 0
    /// Batches retried after `SQLITE_BUSY`.
    public var busyRetries = 0
    /// The most jobs committed in one transaction.
    public var largestBatch = 0
    /// Jobs waiting for the writer right now.
    public var queueDepth = 0

    /// All zero.
    public init() {}
}
