import CMicroHTTPD
import Glibc

/// Accepts connections on the daemon's listen socket on one thread of its own and hands each
/// to libmicrohttpd with `MHD_add_connection`, which places it on worker `fd % pool size`.
///
/// libmicrohttpd's own accepting is a race: every worker polls the listen socket and the one
/// that wakes first accepts everything waiting. 64 connections opened at once landed on 25 of
/// 64 workers, and since a worker waits while its request commits, the connections sharing a
/// worker waited for each other (POST p99 25–90 ms at 64 connections against a p50 of 6–9 ms).
/// Handing them out by descriptor spreads them evenly.
final class Acceptor: @unchecked Sendable {
    // @unchecked: `socket`, `daemon` and `wake` are set in init and only read afterwards;
    // `thread` is written by start/stop, which HTTPServer calls under its lifecycle lock.
    private let socket: Int32
    private let daemon: DaemonHandle
    /// A pipe polled next to the socket; `stop()` writes to it to end the loop.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var thread: pthread_t?

    init(socket: Int32, daemon: DaemonHandle) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw HTTPServerError.startFailed(host: "", port: 0, reason: "pipe failed") }
        for fd in ends + [socket] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // Accepting must not block: the loop drains the backlog until EAGAIN.
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL, 0) | O_NONBLOCK)
        self.socket = socket
        self.daemon = daemon
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
            throw HTTPServerError.startFailed(host: "", port: 0, reason: "cannot start the accepting thread")
        }
        thread = id
    }

    /// Ends the loop and waits for the thread; connections still in the backlog stay there
    /// (the caller drains them). Idempotent.
    func stop() {
        guard let id = thread else { return }
        thread = nil
        var one: UInt8 = 1
        _ = Glibc.write(wakeWrite, &one, 1)
        pthread_join(id, nil)
    }

    private func run() {
        var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return }
            acceptWaiting()
        }
    }

    /// Accepts until the backlog is empty (also called once more after ``stop()``).
    func acceptWaiting() {
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.accept(socket, $0, &length)
                }
            }
            if client < 0 {
                // EAGAIN: drained. EMFILE/ENFILE: out of descriptors; back off instead of spinning
                // (the connection stays in the backlog for the next round).
                if errno == EMFILE || errno == ENFILE { usleep(10_000) }
                return
            }
            // On failure (every worker at its connection limit) MHD closes the socket itself.
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon.pointer, client, $0, length) }
            }
        }
    }
}
