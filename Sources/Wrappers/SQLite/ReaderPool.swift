/// Read-only connections for ``Database/read(_:)``, opened lazily up to a limit.
///
/// A caller takes an idle connection (or opens one, or waits when all are in
/// use) under the lock, uses it without the lock, and puts it back. In WAL mode
/// these readers run in parallel with the writer and each sees the last commit
/// made before its statement (or explicit transaction) began.
final class ReaderPool: @unchecked Sendable {
    // @unchecked: `idle`, `openCount` and `closed` are guarded by `lock`; a
    // checked-out Connection is used by exactly one thread until checked in.
    private let lock = Lock()
    private let returned = Condition()
    private var idle: [Connection] = []
    private var openCount = 0
    private var closed = false
    private let path: String
    private let capacity: Int
    private let busyTimeoutMillis: Int32
    private let counter: StatementCounter?

    init(path: String, capacity: Int, busyTimeoutMillis: Int32, counter: StatementCounter? = nil) {
        self.counter = counter
        self.path = path
        self.capacity = capacity
        self.busyTimeoutMillis = busyTimeoutMillis
    }

    /// Runs `body` with a reader connection on the calling thread.
    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// Closes idle connections now and busy ones when they come back; later
    /// reads throw.
    func close() {
        let closing: [Connection] = lock.withLock {
            closed = true
            let all = idle
            idle.removeAll()
            openCount -= all.count
            returned.broadcast()
            return all
        }
        _ = closing  // released here, outside the lock: sqlite3_close_v2 runs
    }

    private func checkOut() throws -> Connection {
        lock.lock()
        while true {
            if closed {
                lock.unlock()
                throw SQLiteError.closed
            }
            if let connection = idle.popLast() {
                lock.unlock()
                return connection
            }
            if openCount < capacity {
                openCount += 1
                lock.unlock()
                do {
                    return try Connection(path: path, readOnly: true, busyTimeoutMillis: busyTimeoutMillis, counter: counter)
                } catch {
                    lock.withLock {
                        openCount -= 1
                        returned.signal()
                    }
                    throw error
                }
            }
            lock.wait(returned)
        }
    }

    private func checkIn(_ connection: Connection) {
        // A body that left a transaction open would pin an old WAL snapshot.
        if connection.isInTransaction { try? connection.execute("ROLLBACK") }
        lock.withLock {
            if closed {
                openCount -= 1
            } else {
                idle.append(connection)
                returned.signal()
            }
        }
    }
}
