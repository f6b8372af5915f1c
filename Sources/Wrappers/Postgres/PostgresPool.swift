import Foundation

/// A thread-safe pool of ``PostgresConnection``s for worker threads.
///
/// Connections are opened lazily up to `size`. ``withConnection(_:)`` borrows
/// one on the caller's thread, waits (up to the acquire timeout) when all are
/// busy, health-checks it before use (reconnecting a broken one) and returns
/// it afterwards. A connection whose use ended in a connection failure is
/// discarded; its slot is refilled on demand. A transaction left open by the
/// body is rolled back before the connection is reused.
///
/// `@unchecked Sendable`: all mutable state (`idle`, `open`, `isClosed`) is
/// read and written only while `condition` (an `NSCondition`, which blocks in
/// the kernel instead of spinning) is locked, and a connection is owned by
/// exactly one borrower at a time: it is either in `idle` (owned by the pool,
/// untouched) or handed to one `withConnection` call. Connecting,
/// health checks and queries happen outside the lock. Blocking calls run on
/// the caller's thread; call from your own threads (e.g. HTTP workers), never
/// from Swift's cooperative pool.
public final class PostgresPool: @unchecked Sendable {
    public let url: PostgresURL
    /// The most connections open (idle + borrowed + being opened) at once.
    public let size: Int
    private let counter: QueryCounter?
    private let acquireTimeout: Double
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var isClosed = false

    /// Parses `url` and prepares a pool of up to `size` connections; none is
    /// opened yet. `connectTimeoutSeconds` becomes libpq's `connect_timeout`
    /// (unless the URL sets one) and is also how long ``withConnection(_:)``
    /// waits for a free connection unless `acquireTimeoutSeconds` says otherwise.
    public convenience init(url: String, size: Int = 8, connectTimeoutSeconds: Int = 5,
                            acquireTimeoutSeconds: Double? = nil) throws {
        self.init(url: try PostgresURL(url), size: size, connectTimeoutSeconds: connectTimeoutSeconds,
                  acquireTimeoutSeconds: acquireTimeoutSeconds)
    }

    /// The same from a parsed URL (e.g. one whose options a caller adjusted).
    /// `counter` counts every pooled connection's statements and round trips (tests).
    public init(url: PostgresURL, size: Int = 8, connectTimeoutSeconds: Int = 5,
                acquireTimeoutSeconds: Double? = nil, counter: QueryCounter? = nil) {
        self.counter = counter
        precondition(size > 0, "a pool needs at least one connection")
        var parsed = url
        if parsed.option("connect_timeout") == nil, connectTimeoutSeconds > 0 {
            parsed.setOption("connect_timeout", String(connectTimeoutSeconds))
        }
        self.url = parsed
        self.size = size
        self.acquireTimeout = acquireTimeoutSeconds ?? Double(max(connectTimeoutSeconds, 1))
    }

    deinit {
        close()
    }

    /// Connections currently open: idle, borrowed, or being opened.
    public var openConnections: Int {
        condition.lock()
        defer { condition.unlock() }
        return open
    }

    /// Idle connections ready to be borrowed.
    public var idleConnections: Int {
        condition.lock()
        defer { condition.unlock() }
        return idle.count
    }

    /// Runs `body` with a healthy connection borrowed for the duration of the call.
    ///
    /// Throws a ``PostgresError`` with `isPoolTimeout` when no connection frees
    /// up in time, `.poolClosed` after ``close()``, a connection failure when
    /// the server cannot be reached, or whatever `body` throws. Do not keep the
    /// connection after `body` returns, and do not borrow a second one from the
    /// same pool inside `body`: with every connection borrowed that waits for
    /// itself until the acquire timeout.
    @discardableResult
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try checkOut()
        var reusable = false
        defer { checkIn(connection, reusable: reusable) }
        do {
            let value = try body(connection)
            reusable = Self.prepareForReuse(connection)
            return value
        } catch {
            // A connection failure left the connection broken: not reusable.
            reusable = Self.prepareForReuse(connection)
            throw error
        }
    }

    /// Closes idle connections now and borrowed ones when they come back;
    /// later and waiting ``withConnection(_:)`` calls throw `.poolClosed`.
    public func close() {
        condition.lock()
        isClosed = true
        let closing = idle
        idle.removeAll()
        open -= closing.count
        condition.broadcast()
        condition.unlock()
        for connection in closing { connection.close() }
    }

    /// Takes an idle connection, or opens one if below `size`, or waits.
    private func checkOut() throws -> PostgresConnection {
        let deadline = Date(timeIntervalSinceNow: acquireTimeout)
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw PostgresError(kind: .poolClosed, message: "the pool is closed")
            }
            if let connection = idle.popLast() {
                condition.unlock()
                return try healthy(connection)
            }
            if open < size {
                open += 1
                condition.unlock()
                return try opened()
            }
            if !condition.wait(until: deadline) && idle.isEmpty && open >= size && !isClosed {
                condition.unlock()
                throw PostgresError(kind: .poolTimeout, message:
                    "no connection free after \(acquireTimeout) s (all \(size) busy); raise the pool size or shorten transactions")
            }
        }
    }

    /// Opens a connection for a slot already counted in `open`; frees the slot on failure.
    private func opened() throws -> PostgresConnection {
        do {
            let connection = try PostgresConnection(url)
            connection.counter = counter
            return connection
        } catch {
            releaseSlot()
            throw error
        }
    }

    /// Returns `connection` if healthy, else reconnects it (`PQreset`, which
    /// also clears its statement cache); frees the slot when that fails.
    private func healthy(_ connection: PostgresConnection) throws -> PostgresConnection {
        if connection.isHealthy { return connection }
        do {
            try connection.reset()
            return connection
        } catch {
            connection.close()
            releaseSlot()
            throw error
        }
    }

    /// Puts a borrowed connection back, or closes it and frees its slot.
    private func checkIn(_ connection: PostgresConnection, reusable: Bool) {
        condition.lock()
        if reusable && !isClosed {
            idle.append(connection)
            condition.signal()
            condition.unlock()
        } else {
            open -= 1
            condition.signal()
            condition.unlock()
            connection.close()
        }
    }

    private func releaseSlot() {
        condition.lock()
        open -= 1
        condition.signal()
        condition.unlock()
    }

    /// Rolls back a transaction the body left open; says whether the
    /// connection can serve the next borrower.
    private static func prepareForReuse(_ connection: PostgresConnection) -> Bool {
        guard connection.isHealthy else { return false }
        if connection.isInTransaction {
            do {
                try connection.execute("ROLLBACK")
            } catch {
                return false
            }
        }
        return !connection.isInTransaction
    }
}
