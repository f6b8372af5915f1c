import CMicroHTTPD
import Glibc

extension HTTPServer {
    /// The listening socket and the workers the server hands its connections to.
    struct Listening {
        let socket: Int32
        let port: Int
        let workers: [Worker]
    }

    /// Validates the configuration, binds the listening socket and starts one MHD daemon per
    /// worker thread, none with a listen socket of its own: the ``Acceptor`` hands them
    /// connections. On failure nothing is left running or open.
    func startDaemons() throws -> Listening {
        let config = configuration
        try validate(config)
        var storage = sockaddr_storage()
        let family = pv_make_sockaddr(config.host, UInt16(config.port), &storage)
        guard family != 0 else { throw HTTPServerError.invalidHost(config.host) }
        var port: UInt16 = 0
        let socket = pv_listen(&storage, SOMAXCONN, &port)
        guard socket >= 0 else {
            throw HTTPServerError.startFailed(host: config.host, port: config.port, reason: String(cString: strerror(errno)))
        }
        var workers: [Worker] = []
        do {
            for _ in 0..<config.threadPoolSize {
                let worker = Worker(deadlines: headerDeadlines)
                worker.daemon = try startDaemon(for: worker)
                workers.append(worker)
            }
        } catch {
            for worker in workers { if let daemon = worker.daemon { MHD_stop_daemon(daemon.pointer) } }
            _ = Glibc.close(socket)
            throw error
        }
        return Listening(socket: socket, port: Int(port), workers: workers)
    }

    /// One daemon on one internal epoll thread, fed by MHD_add_connection. ITC wakes its thread
    /// for an added connection and is required by suspend/resume, which stream bodies use to
    /// wait off MHD's threads. The acceptor keeps the server-wide count and limit; the daemon's own
    /// limit is one above it, because libmicrohttpd notifies a close just before it lowers its own
    /// count, and a connection added in between must not be refused.
    private func startDaemon(for worker: Worker) throws -> DaemonHandle {
        let config = configuration
        let flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue
        let context = Unmanaged.passUnretained(self).toOpaque()
        errno = 0
        var options = pv_mhd_daemon_config(
            flags: flags,
            connection_limit: UInt32(min(config.connectionLimit + 1, Int(UInt32.max))),
            connection_timeout_seconds: UInt32(config.connectionTimeoutSeconds),
            connection_memory_limit: config.memoryLimitPerConnection,
            access_handler: mhdAccessHandler,
            access_handler_cls: context,
            request_completed: mhdRequestCompleted,
            request_completed_cls: context,
            notify_connection: mhdConnectionNotice,
            notify_connection_cls: Unmanaged.passUnretained(worker).toOpaque()
        )
        guard let daemon = pv_mhd_start_daemon(&options) else {
            let code = errno
            let reason = code != 0 ? String(cString: strerror(code)) : "libmicrohttpd refused to start"
            throw HTTPServerError.startFailed(host: config.host, port: config.port, reason: reason)
        }
        return DaemonHandle(pointer: daemon)
    }

    private func validate(_ config: HTTPServerConfiguration) throws {
        func require(_ condition: Bool, _ reason: String) throws {
            if !condition { throw HTTPServerError.invalidConfiguration(reason) }
        }
        try require((0...65535).contains(config.port), "port must be 0...65535")
        try require((1...1024).contains(config.threadPoolSize), "threadPoolSize must be 1...1024")
        try require(config.connectionLimit >= 1 && config.connectionLimit <= Int(UInt32.max),
                    "connectionLimit must be positive")
        try require(config.connectionTimeoutSeconds >= 0 && config.connectionTimeoutSeconds <= 86_400,
                    "connectionTimeoutSeconds must be 0...86400 (0 = never)")
        try require(config.maxBodyBytes >= 0, "maxBodyBytes must not be negative")
        try require(config.memoryLimitPerConnection >= 4096, "memoryLimitPerConnection must be at least 4096")
    }
}
