/// Copies the WAL back into the database file on its own thread and connection (a `PASSIVE`
/// checkpoint every `interval`), so the writer thread — the one serial resource — rarely pays
/// for copying pages and syncing the database file in its commits.
///
/// A passive checkpoint never waits for readers or the writer; it copies what it can, and the
/// next round continues. It cannot replace the writer's automatic checkpoint: under constant
/// writes it never catches up with the end of the WAL, and the WAL only restarts from its
/// beginning after a checkpoint that did (measured: 146 MB of WAL after 3 s of load with the
/// writer's checkpoint off). So the writer keeps its automatic checkpoint, which then finds
/// nearly everything copied already and mostly just lets the WAL restart.
final class Checkpointer: @unchecked Sendable {
    // @unchecked: `running` and `stopped` are guarded by `lock`; `connection` is used only by
    // the checkpoint thread, then released by it.
    private let lock = Lock()
    private let wake = Condition()
    private let done = Condition()
    private var running = true
    private var stopped = false
    private var connection: Connection?
    private let intervalMicros: Int

    init(path: String, busyTimeoutMillis: Int32, synchronous: String, intervalMicros: Int) throws {
        let connection = try Connection(path: path, readOnly: false, busyTimeoutMillis: busyTimeoutMillis)
        // The checkpoint syncs (or not) as the configured level says, like the writer's.
        try connection.execute("PRAGMA synchronous = \(synchronous)")
        self.connection = connection
        self.intervalMicros = intervalMicros
        try DetachedThread.start(name: "sqlite-ckpt") { [self] in run() }
    }

    private func run() {
        while true {
            let live = lock.withLock { () -> Bool in
                if running { _ = lock.wait(wake, until: Lock.deadline(afterMicros: intervalMicros)) }
                return running
            }
            guard live else { break }
            // Errors (e.g. SQLITE_BUSY while another process checkpoints) only mean "next round".
            try? connection?.execute("PRAGMA wal_checkpoint(PASSIVE)")
        }
        connection = nil
        lock.withLock {
            stopped = true
            done.broadcast()
        }
    }

    /// Stops the thread and closes its connection; returns once both are done. Idempotent.
    func stop() {
        lock.withLock {
            running = false
            wake.signal()
            while !stopped { lock.wait(done) }
        }
    }
}
