import CMicroHTTPD
import Glibc
import Synchronization

/// Accepts connections on the server's listening socket on one thread of its own and hands
/// each to the ``Worker`` holding the fewest (`MHD_add_connection` on that worker's daemon).
///
/// Left to itself, a libmicrohttpd thread pool races for the listening socket: the worker that
/// wakes first accepts everything waiting. 64 connections opened at once landed on 25 of 64
/// workers, and since a worker waits while its request commits, connections sharing a worker
/// waited for each other (POST p99 25–90 ms at 64 connections against a p50 of 6–9 ms). A
/// pool's own placement for added connections (descriptor modulo pool size) is no better once
/// descriptors are reused out of order, so each worker is a daemon of its own. (Taking the
/// socket back from a running epoll pool with `MHD_quiesce_daemon` is no option either: it can
/// race a worker and abort the process, a known libmicrohttpd defect.)
final class Acceptor: @unchecked Sendable {
    // @unchecked: the descriptors, `workers` and `connectionLimit` are set in init and only read
    // afterwards; `thread` is written by start/stop, which HTTPServer calls under its lock.
    private let socket: Int32
    private let workers: [Worker]
    private let connectionLimit: Int
    private let deadlines: HeaderDeadlines
    /// A pipe polled next to the socket; `stop()` writes to it to end the loop.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopping = Atomic<Bool>(false)
    private var thread: pthread_t?
    /// When a connection was last handed to a worker (monotonic nanoseconds; 0: never).
    let lastAcceptNanoseconds = Atomic<UInt64>(0)

    init(socket: Int32, workers: [Worker], connectionLimit: Int, deadlines: HeaderDeadlines) throws {
        precondition(!workers.isEmpty, "an acceptor needs a worker")
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw HTTPServerError.startFailed(host: "", port: 0, reason: "no wake pipe for the accepting thread: \(String(cString: strerror(errno)))")
        }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        self.socket = socket
        self.workers = workers
        self.connectionLimit = connectionLimit
        self.deadlines = deadlines
        self.wakeRead = ends[0]
        self.wakeWrite = ends[1]
    }

    deinit {
        _ = Glibc.close(wakeRead)
        _ = Glibc.close(wakeWrite)
    }

    /// Starts the accepting thread.
    func start() throws {
        let context = Unmanaged.passRetained(self).toOpaque()
        var id = pthread_t()
        let code = pthread_create(&id, nil, { raw in
            let acceptor = Unmanaged<Acceptor>.fromOpaque(raw!).takeRetainedValue()
            acceptor.run()
            return nil
        }, context)
        guard code == 0 else {
            Unmanaged<Acceptor>.fromOpaque(context).release()
            throw HTTPServerError.startFailed(host: "", port: 0, reason: "cannot start the accepting thread: \(String(cString: strerror(code)))")
        }
        thread = id
    }

    /// Ends the loop and waits for the thread; connections still in the backlog stay there
    /// (the caller may drain them with ``acceptWaiting()``). Idempotent.
    func stop() {
        guard let id = thread else { return }
        thread = nil
        stopping.store(true, ordering: .releasing)
        var one: UInt8 = 1
        _ = Glibc.write(wakeWrite, &one, 1)
        pthread_join(id, nil)
    }

    private func run() {
        var both = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        var wakeOnly = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        while !stopping.load(ordering: .acquiring) {
            deadlines.sweep()
            if atLimit {
                // At the connection limit, leave new connections in the kernel's backlog (as
                // libmicrohttpd's own accepting does) rather than accepting them only to be closed.
                wakeOnly.revents = 0
                let ready = poll(&wakeOnly, 1, 20)
                if ready < 0 && errno != EINTR { usleep(10_000) }
                if ready > 0 && wakeOnly.revents != 0 { return }
                continue
            }
            both[0].revents = 0
            both[1].revents = 0
            // Woken at least four times a second to close connections past their header deadline.
            let ready = poll(&both, 2, 250)
            if ready < 0 {
                if errno != EINTR { usleep(10_000) }  // not expected; never spin, never give up
                continue
            }
            if both[1].revents != 0 { return }
            if both[0].revents != 0 { acceptWaiting() }
        }
    }

    private var atLimit: Bool {
        workers.reduce(0) { $0 + $1.connections.load(ordering: .relaxed) } >= connectionLimit
    }

    /// The worker holding the fewest connections (the first of them on a tie).
    private var leastLoaded: Worker {
        var best = workers[0]
        var fewest = best.connections.load(ordering: .relaxed)
        for worker in workers.dropFirst() where fewest > 0 {
            let count = worker.connections.load(ordering: .relaxed)
            if count < fewest { best = worker; fewest = count }
        }
        return best
    }

    /// Accepts until the backlog is empty or the server is full (also called once more after
    /// ``stop()``, to hand over what the kernel already accepted).
    func acceptWaiting() {
        while !atLimit {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(socket, $0, &length) }
            }
            guard client >= 0 else {
                switch errno {
                case EINTR, ECONNABORTED, EPROTO: continue  // that one is gone; the rest still wait
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: usleep(10_000)  // back off; the backlog keeps them
                default: break  // EAGAIN: drained
                }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let worker = leastLoaded
            guard let daemon = worker.daemon else { _ = Glibc.close(client); return }
            worker.connections.add(1, ordering: .relaxed)
            deadlines.accepted(socket: client)
            let added = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon.pointer, client, $0, length) }
            }
            // On failure MHD has closed the socket itself (and sends no notice for it).
            if added != .YES {
                worker.connections.subtract(1, ordering: .relaxed)
                deadlines.notAdded(socket: client)
            } else {
                lastAcceptNanoseconds.store(Monotonic.nanoseconds(), ordering: .releasing)
            }
        }
    }

}
