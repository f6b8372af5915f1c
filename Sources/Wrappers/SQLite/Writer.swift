#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The single writer behind ``Database/write(_:)``: a dedicated thread that
/// owns the only read-write connection and commits queued jobs in groups.
///
/// Callers append a ``WriteJob`` under `lock` and sleep on the job's own semaphore until
/// the writer signals it. The lock is held only to move jobs, never while SQLite works or
/// while waking callers, so callers never spin or block on disk I/O through it.
final class Writer: @unchecked Sendable {
    // @unchecked: `pending`, `state`, `threadID` and `stats` are guarded by
    // `lock`; `connection` and `nestedDepth` are used only by the writer thread
    // (and by `init` before that thread exists).
    let lock = Lock()
    private let workAvailable = Condition()
    private let stopped = Condition()
    private var pending: [WriteJob] = []
    /// The writer thread sleeps waiting for a first job (only then does a submit signal it).
    private var writerIdle = false
    /// While the writer waits (at most `maxBatchWaitMicros`) for a batch to fill up: the
    /// number of queued jobs that ends the wait (else 0).
    private var fillTarget = 0
    /// Jobs in the previous batch: the concurrency the next batch waits for.
    private var lastBatchSize = 1
    private var state = State.created
    private var threadID: pthread_t?
    var stats = DatabaseStatistics()

    var connection: Connection?
    let maxBatchSize: Int
    private let maxBatchWaitMicros: Int

    private enum State { case created, running, closing, stopped }

    init(connection: Connection, maxBatchSize: Int, maxBatchWaitMicros: Int) {
        self.connection = connection
        self.maxBatchSize = maxBatchSize
        self.maxBatchWaitMicros = maxBatchWaitMicros
    }

    /// Starts the writer thread.
    func start() throws {
        lock.withLock { state = .running }
        do {
            try DetachedThread.start(name: "sqlite-writer") { [self] in runLoop() }
        } catch {
            lock.withLock { state = .stopped }
            throw error
        }
    }

    /// Runs `work` in the next batch and blocks until that batch committed (or
    /// failed). On the writer thread itself (a `write` nested in a write body)
    /// it runs inline in a savepoint of the current transaction instead.
    func submit(_ work: @escaping @Sendable (Connection) throws -> any Sendable) throws -> any Sendable {
        lock.lock()
        if let threadID, pthread_equal(threadID, pthread_self()) != 0 {
            lock.unlock()
            return try runNested(work)
        }
        guard state == .running else {
            lock.unlock()
            throw SQLiteError.closed
        }
        let job = WriteJob(work)
        pending.append(job)
        let wake = writerIdle || (fillTarget > 0 && pending.count >= fillTarget)
        lock.unlock()
        // Signalled after unlocking, so the writer does not wake only to wait for the lock.
        if wake { workAvailable.signal() }
        job.done.wait()
        guard let outcome = job.outcome else { preconditionFailure("write job finished without an outcome") }
        return try outcome.get()
    }

    /// Refuses new jobs, lets the writer finish the queued ones, and returns
    /// once it has closed its connection. Idempotent. Called on the writer
    /// thread (from a write body) it only requests the stop.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        if state == .created { state = .stopped }
        if state == .running { state = .closing }
        workAvailable.signal()
        if let threadID, pthread_equal(threadID, pthread_self()) != 0 { return }
        while state != .stopped { lock.wait(stopped) }
    }

    /// A snapshot of the counters.
    var statistics: DatabaseStatistics {
        lock.withLock {
            var snapshot = stats
            snapshot.queueDepth = pending.count
            return snapshot
        }
    }

    /// The writer thread's body: take a batch, run it without the lock, hand
    /// out the results, repeat until stopped and drained.
    private func runLoop() {
        lock.withLock { threadID = pthread_self() }
        while let batch = nextBatch() {
            guard let connection else { preconditionFailure("writer connection missing") }
            let outcomes = perform(batch, on: connection)
            finish(batch, outcomes)
        }
        connection = nil  // closes the database file before stop() returns
        lock.withLock {
            threadID = nil
            state = .stopped
            stopped.broadcast()
        }
    }

    /// Waits for work and takes up to `maxBatchSize` jobs; `nil` once closing
    /// and drained.
    private func nextBatch() -> [WriteJob]? {
        lock.lock()
        defer { lock.unlock() }
        while pending.isEmpty && state == .running {
            writerIdle = true
            lock.wait(workAvailable)
            writerIdle = false
        }
        if pending.isEmpty { return nil }
        // Under concurrent load (the last batch had several jobs), wait (bounded) until as many
        // jobs as the last batch had are queued: fewer, larger commits. After a batch of one
        // (a lone caller) there is no wait; the first job after a burst may wait once.
        let target = lastBatchSize > 1 ? min(maxBatchSize, lastBatchSize) : 0
        if maxBatchWaitMicros > 0 && pending.count < target && state == .running {
            let deadline = Lock.deadline(afterMicros: maxBatchWaitMicros)
            fillTarget = target
            while pending.count < target && state == .running {
                if !lock.wait(workAvailable, until: deadline) { break }
            }
            fillTarget = 0
        }
        lastBatchSize = min(pending.count, maxBatchSize)
        if pending.count <= maxBatchSize {
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        let batch = Array(pending.prefix(maxBatchSize))
        pending.removeFirst(maxBatchSize)
        return batch
    }

    /// Publishes outcomes and wakes each caller of the batch (without holding the lock).
    private func finish(_ batch: [WriteJob], _ outcomes: [Result<any Sendable, any Error>]) {
        let failed = outcomes.count { if case .failure = $0 { true } else { false } }
        lock.withLock {
            stats.failedJobs += failed
            stats.jobs += batch.count
            stats.largestBatch = max(stats.largestBatch, batch.count)
        }
        for (job, outcome) in zip(batch, outcomes) {
            job.outcome = outcome
            job.done.signal()
        }
    }
}
