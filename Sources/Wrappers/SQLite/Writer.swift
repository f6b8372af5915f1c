#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The single writer behind ``Database/write(_:)``: the only read-write connection, which
/// commits queued jobs in groups, run by the callers' own threads in turn (no writer thread).
///
/// A caller appends a ``WriteJob`` under `lock`. If no caller is leading, it leads: it takes
/// the queued jobs as one batch, runs them on its own thread, wakes the other callers of the
/// batch, and hands the lead to the first caller still queued (waking it, which it had to be
/// anyway) or, with nothing queued, gives it up. The others sleep on their job's semaphore until
/// their batch committed or their turn to lead came. So a write wakes one thread (its caller)
/// at most, none for a lone caller; a writer thread cost two more wake-ups per batch (its own,
/// and the hand-off back), and each job ran on another core than the one holding its data.
/// The lock is held only to move jobs, never while SQLite works or while waking callers.
final class Writer: @unchecked Sendable {
    // @unchecked: `pending`, `leading`, `leader`, `fillTarget`, `lastBatchSize`, `state` and
    // `stats` are guarded by `lock`; `connection` is used only by the leading caller (the lead
    // passes under `lock` and by semaphore), and by `init`/`stop` when no one leads.
    let lock = Lock()
    private let workAvailable = Condition()
    private let stopped = Condition()
    private var pending: [WriteJob] = []
    /// A caller runs, or has been handed, the batches.
    private var leading = false
    /// The thread of the caller running a batch (nested writes run inline on it).
    private var leader: pthread_t?
    /// While the leader waits (at most `maxBatchWaitMicros`) for a batch to fill up: the
    /// number of queued jobs that ends the wait (else 0).
    private var fillTarget = 0
    /// Jobs in the previous batch: the concurrency the next batch waits for.
    private var lastBatchSize = 1
    private var state = State.created
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

    /// Accepts jobs from now on.
    func start() throws {
        lock.withLock { state = .running }
    }

    /// Runs `work` in the next batch and blocks until that batch committed (or
    /// failed). Inside a write body (on the leader's thread) it runs inline in a
    /// savepoint of the current transaction instead.
    func submit(_ work: @escaping @Sendable (Connection) throws -> any Sendable) throws -> any Sendable {
        lock.lock()
        if let leader, pthread_equal(leader, pthread_self()) != 0 {
            lock.unlock()
            return try runNested(work)
        }
        guard state == .running else {
            lock.unlock()
            throw SQLiteError.closed
        }
        let job = WriteJob(work)
        pending.append(job)
        if leading {
            let wake = fillTarget > 0 && pending.count >= fillTarget
            lock.unlock()
            // Signalled after unlocking, so the leader does not wake only to wait for the lock.
            if wake { workAvailable.signal() }
            job.done.wait()
            // Woken without an outcome: the lead was handed to this caller.
            if job.outcome == nil { lead(job) }
        } else {
            leading = true
            lock.unlock()
            lead(job)
        }
        guard let outcome = job.outcome else { preconditionFailure("write job finished without an outcome") }
        return try outcome.get()
    }

    /// Refuses new jobs, lets the queued ones run, and returns once the connection is
    /// closed. Idempotent. Called from a write body it only requests the stop (the leader
    /// closes the connection when the queue is drained).
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        if state == .created { state = .stopped }
        if state == .running { state = .closing }
        workAvailable.signal()
        if let leader, pthread_equal(leader, pthread_self()) != 0 { return }
        if state == .closing && !leading { closeLocked() }
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

    /// The leader's turn, `own` being its queued job (the first in the queue): one batch, then
    /// the lead to the next queued caller, or given up.
    private func lead(_ own: WriteJob) {
        lock.lock()
        leader = pthread_self()
        let batch = nextBatch()
        lock.unlock()
        guard let connection else { preconditionFailure("writer connection missing") }
        let outcomes = perform(batch, on: connection)
        let next: WriteJob? = lock.withLock {
            stats.failedJobs += outcomes.count { if case .failure = $0 { true } else { false } }
            stats.jobs += batch.count
            stats.largestBatch = max(stats.largestBatch, batch.count)
            leader = nil
            if let first = pending.first { return first }
            leading = false
            if state == .closing { closeLocked() }
            return nil
        }
        // The next leader first: its batch fills while the callers of this one wake.
        next?.done.signal()
        for (job, outcome) in zip(batch, outcomes) {
            job.outcome = outcome
            if job !== own { job.done.signal() }
        }
    }

    /// Takes up to `maxBatchSize` queued jobs (the first is the leader's). Called with `lock` held.
    private func nextBatch() -> [WriteJob] {
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

    /// Closes the connection once no one leads and nothing is queued. Called with `lock` held.
    private func closeLocked() {
        connection = nil
        state = .stopped
        stopped.broadcast()
    }
}
