import CMicroHTTPD
import Glibc
import Synchronization

/// Closes connections whose request head is not complete within the header timeout (10 s by
/// default): libmicrohttpd's own timeout is an idle timeout, which a client sending one byte
/// every few seconds never reaches, holding a connection place for ever.
///
/// Each accepted socket gets a duplicate descriptor that this registry owns. A connection's
/// deadline starts when it is accepted and again when a response ends (the next head on a
/// keep-alive connection); it is cleared when libmicrohttpd hands a complete head to the server.
/// ``sweep()`` (called by the acceptor thread about four times a second) shuts the overdue
/// sockets down through their duplicates: libmicrohttpd then reads end-of-stream and closes
/// the connection itself. Because the duplicate stays open until libmicrohttpd reports the
/// connection closed, the shutdown can never hit a descriptor reused by something else.
final class HeaderDeadlines: Sendable {
    private struct State {
        /// Duplicate descriptor → deadline (monotonic ns; 0: head complete, no deadline).
        var deadlines: [Int32: UInt64] = [:]
        /// Accepted descriptor → its duplicate and when to give up waiting for libmicrohttpd's
        /// start notice (then it dropped the connection without one), until that notice takes it.
        var pending: [Int32: (duplicate: Int32, until: UInt64)] = [:]
    }

    let timeoutNanoseconds: UInt64
    /// How long a connection may wait for its worker to start it: ten header timeouts. A worker
    /// busy in a slow responder (a database that does not answer) starts its queued connections
    /// late; their duplicates must still be there then, or they would get no deadline at all.
    let startGraceNanoseconds: UInt64
    private let state = Mutex(State())

    init(timeoutSeconds: Double) {
        // Bounded so the arithmetic below cannot overflow (a day is far beyond any sane timeout).
        let seconds = min(max(0, timeoutSeconds.isFinite ? timeoutSeconds : 0), 86_400)
        timeoutNanoseconds = UInt64(seconds * 1_000_000_000)
        startGraceNanoseconds = timeoutNanoseconds * 10
    }

    /// Before `MHD_add_connection(socket)`: starts the clock. Returns false when no duplicate
    /// could be made (the connection is then served without a header deadline).
    @discardableResult
    func accepted(socket: Int32) -> Bool {
        guard timeoutNanoseconds > 0 else { return false }
        let duplicate = fcntl(socket, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else { return false }
        let now = Monotonic.nanoseconds()
        state.withLock { state in
            // A descriptor number still pending was closed by libmicrohttpd without any notice
            // (a connection dropped before it started): its duplicate goes now.
            if let stale = state.pending.removeValue(forKey: socket) {
                state.deadlines[stale.duplicate] = nil
                _ = Glibc.close(stale.duplicate)
            }
            state.deadlines[duplicate] = now + timeoutNanoseconds
            state.pending[socket] = (duplicate, now + startGraceNanoseconds)
        }
        return true
    }

    /// `MHD_add_connection` failed (it closed `socket`): forgets it unless the start notice came.
    func notAdded(socket: Int32) {
        state.withLock { state in
            guard let duplicate = state.pending.removeValue(forKey: socket)?.duplicate else { return }
            state.deadlines[duplicate] = nil
            _ = Glibc.close(duplicate)
        }
    }

    /// libmicrohttpd's start notice (on the daemon's thread, some time after the add): the
    /// connection's context remembers its duplicate, and its head has the timeout from now (a
    /// late start is the server's doing, not the client's).
    func started(_ connection: OpaquePointer, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let socket = pv_mhd_connection_fd(connection)
        guard socket >= 0 else { return }
        let deadline = Monotonic.nanoseconds() + timeoutNanoseconds
        guard let duplicate = state.withLock({ state -> Int32? in
            guard let duplicate = state.pending.removeValue(forKey: socket)?.duplicate else { return nil }
            if state.deadlines[duplicate] != nil { state.deadlines[duplicate] = deadline }
            return duplicate
        }) else { return }
        context.pointee = UnsafeMutableRawPointer(bitPattern: Int(duplicate) + 1)
    }

    /// The request head is complete.
    func headComplete(_ connection: OpaquePointer) {
        guard let duplicate = Self.duplicate(of: connection) else { return }
        state.withLock { state in
            if state.deadlines[duplicate] != nil { state.deadlines[duplicate] = 0 }
        }
    }

    /// A request ended: the next head on this connection has the timeout from now.
    func requestEnded(_ connection: OpaquePointer) {
        guard let duplicate = Self.duplicate(of: connection) else { return }
        let deadline = Monotonic.nanoseconds() + timeoutNanoseconds
        state.withLock { state in
            if state.deadlines[duplicate] != nil { state.deadlines[duplicate] = deadline }
        }
    }

    /// libmicrohttpd's close notice: the duplicate is closed and forgotten.
    func closed(context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let raw = context.pointee else { return }
        context.pointee = nil
        let duplicate = Int32(Int(bitPattern: raw) - 1)
        state.withLock { state in
            guard state.deadlines.removeValue(forKey: duplicate) != nil else { return }
            _ = Glibc.close(duplicate)
        }
    }

    /// Shuts down every started connection past its deadline; returns how many. A duplicate whose
    /// connection has not started within ``startGraceNanoseconds`` belongs to a connection
    /// libmicrohttpd dropped without a notice: it is closed instead. One still waiting for a busy
    /// worker is left alone (its clock restarts when the worker starts it).
    @discardableResult
    func sweep() -> Int {
        let now = Monotonic.nanoseconds()
        return state.withLock { state in
            guard !state.deadlines.isEmpty else { return 0 }
            var overdue = 0
            var waiting = Set<Int32>()
            for (socket, entry) in state.pending {
                guard entry.until < now else { waiting.insert(entry.duplicate); continue }
                state.pending[socket] = nil
                state.deadlines[entry.duplicate] = nil
                _ = Glibc.close(entry.duplicate)
                overdue += 1
            }
            for (duplicate, deadline) in state.deadlines where deadline != 0 && deadline < now && !waiting.contains(duplicate) {
                _ = Glibc.shutdown(duplicate, Int32(SHUT_RDWR))
                state.deadlines[duplicate] = 0
                overdue += 1
            }
            return overdue
        }
    }

    /// After every daemon has stopped (no notice can come any more): closes what is left.
    func closeAll() {
        state.withLock { state in
            for duplicate in state.deadlines.keys { _ = Glibc.close(duplicate) }
            state = State()
        }
    }

    /// Connections being watched (tests).
    var count: Int { state.withLock { $0.deadlines.count } }

    private static func duplicate(of connection: OpaquePointer) -> Int32? {
        guard let raw = pv_mhd_socket_context(connection) else { return nil }
        return Int32(Int(bitPattern: raw) - 1)
    }
}
