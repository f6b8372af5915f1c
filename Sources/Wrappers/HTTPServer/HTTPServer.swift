import CMicroHTTPD
import Glibc
import HTTPMessages
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd that hands complete requests to an ``HTTPResponder``.
///
/// `threadPoolSize` workers, each a libmicrohttpd daemon on one epoll thread; the responder is called
/// synchronously on those threads (no hop to Swift's cooperative pool), so it should be quick
/// or at least not wait on work that needs the same threads. New connections are accepted by
/// an ``Acceptor`` thread, which spreads them over the worker threads. Keep-alive, chunked uploads,
/// timeouts and oversized request heads are handled by libmicrohttpd.
///
/// A started server keeps itself alive until ``shutdown(graceSeconds:)`` returns.
public final class HTTPServer: Sendable {
    private struct Running {
        /// One daemon each (retained here: their connection notices point at them).
        let workers: [Worker]
        let port: Int
        /// The listening socket: the ``Acceptor`` accepts on it and hands connections to the
        /// workers' daemons, which have no listen socket of their own. Closed after they stop.
        let listenSocket: Int32
        let acceptor: Acceptor
        var acceptingStopped = false
        /// The daemon's callbacks point at this object without retaining it.
        let keepAlive: HTTPServer
    }

    private enum Lifecycle {
        case idle
        case running(Running)
        case stopped
    }

    let configuration: HTTPServerConfiguration
    let responder: any HTTPResponder
    /// Requests between the first access-handler call and MHD's completion notice.
    let inFlight = Atomic<Int>(0)
    /// Set by shutdown: responses then carry `Connection: close`.
    let draining = Atomic<Bool>(false)
    let streams = StreamRegistry()
    let headerDeadlines: HeaderDeadlines
    private let lifecycle = Mutex(Lifecycle.idle)

    /// Creates a stopped server; call ``start()`` to listen.
    public init(configuration: HTTPServerConfiguration = HTTPServerConfiguration(), responder: any HTTPResponder) {
        self.configuration = configuration
        self.responder = responder
        self.headerDeadlines = HeaderDeadlines(timeoutSeconds: configuration.headerTimeoutSeconds)
    }

    /// Binds the configured address and starts serving.
    /// - Throws: ``HTTPServerError`` when the configuration is invalid or the bind fails.
    public func start() throws {
        try lifecycle.withLock { lifecycle in
            guard case .idle = lifecycle else { throw HTTPServerError.alreadyStarted }
            let listening = try startDaemons()
            let acceptor: Acceptor
            do {
                acceptor = try Acceptor(
                    socket: listening.socket, workers: listening.workers, connectionLimit: configuration.connectionLimit,
                    deadlines: headerDeadlines)
                try acceptor.start()
            } catch {
                Self.stop(listening.workers)
                headerDeadlines.closeAll()
                _ = Glibc.close(listening.socket)
                if case .startFailed(_, _, let reason) = error as? HTTPServerError {
                    throw HTTPServerError.startFailed(host: configuration.host, port: listening.port, reason: reason)
                }
                throw error
            }
            lifecycle = .running(Running(
                workers: listening.workers, port: listening.port, listenSocket: listening.socket, acceptor: acceptor,
                keepAlive: self))
        }
    }

    /// The port actually bound (useful with port 0), or 0 when the server is not running.
    public var port: Int {
        lifecycle.withLock { lifecycle in
            if case .running(let running) = lifecycle { return running.port }
            return 0
        }
    }

    /// Number of requests currently being received, handled or sent.
    public var inFlightRequests: Int { inFlight.load(ordering: .relaxed) }

    /// Stops accepting new connections (new connects are refused); connections already
    /// accepted, including idle keep-alive ones, are still served. Idempotent.
    public func stopAccepting() {
        lifecycle.withLock { lifecycle in
            guard case .running(var running) = lifecycle, !running.acceptingStopped else { return }
            running.acceptingStopped = true
            lifecycle = .running(running)
            running.acceptor.stop()
            // Connections the kernel already accepted into the backlog carry requests clients
            // consider sent: hand them to MHD instead of resetting them (all but those beyond the
            // connection limit, which the shutdown below resets, as before).
            running.acceptor.acceptWaiting()
            // Nothing polls the socket any more; shutting it down makes Linux refuse new
            // connections at once instead of leaving them in the backlog until shutdown.
            _ = Glibc.shutdown(running.listenSocket, Int32(SHUT_RDWR))
        }
    }

    /// How long after the last accepted connection a shutdown still expects its request: a
    /// client that connected just before (or was drained from the backlog) has usually sent it
    /// already, but libmicrohttpd has not read it, so it is not in flight yet.
    static let settleNanoseconds: UInt64 = 250_000_000

    /// Stops the server gracefully: stops accepting, ends stream bodies, waits up to
    /// `graceSeconds` for in-flight requests to finish (their responses are still sent, with
    /// `Connection: close`) and for the requests of connections accepted in the last 250 ms to
    /// arrive, then closes every connection and joins the worker threads.
    /// Blocks the caller; never call it from a responder (it would wait for its own thread).
    public func shutdown(graceSeconds: Double) {
        guard let acceptor = lifecycle.withLock({ lifecycle -> Acceptor? in
            if case .running(let running) = lifecycle { return running.acceptor }
            return nil
        }) else { return }
        draining.store(true, ordering: .relaxed)
        stopAccepting()
        streams.closeAndFinishAll()
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(max(0, graceSeconds) * 1000)))
        let lastAccept = acceptor.lastAcceptNanoseconds.load(ordering: .acquiring)
        let settleUntil = lastAccept == 0 ? 0 : lastAccept + Self.settleNanoseconds
        while ContinuousClock.now < deadline
            && (inFlight.load(ordering: .acquiring) > 0 || Monotonic.nanoseconds() < settleUntil)
        {
            usleep(2_000)
        }
        let running = lifecycle.withLock { lifecycle -> Running? in
            guard case .running(let running) = lifecycle else { return nil }
            lifecycle = .stopped
            return running
        }
        guard let running else { return }
        Self.stop(running.workers)
        headerDeadlines.closeAll()
        _ = Glibc.close(running.listenSocket)
    }

    /// Stops each worker's daemon: closes its connections and joins its thread.
    private static func stop(_ workers: [Worker]) {
        for worker in workers { if let daemon = worker.daemon { MHD_stop_daemon(daemon.pointer) } }
    }
}
