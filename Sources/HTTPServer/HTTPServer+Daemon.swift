import CMicroHTTPD
import Glibc

extension HTTPServer {
    /// Validates the configuration and starts the MHD daemon bound to it.
    func startDaemon() throws -> DaemonHandle {
        let config = configuration
        try validate(config)
        var storage = sockaddr_storage()
        let family = pv_make_sockaddr(config.host, UInt16(config.port), &storage)
        guard family != 0 else { throw HTTPServerError.invalidHost(config.host) }

        // Epoll event loop on an internal thread pool. ITC is required by MHD_quiesce_daemon and
        // by suspend/resume, which stream bodies use to wait off MHD's threads.
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if pv_sockaddr_is_ipv6_any(&storage) != 0 {
            flags |= MHD_USE_DUAL_STACK.rawValue  // "::" means every address, IPv4 included
        } else if family == AF_INET6 {
            flags |= MHD_USE_IPv6.rawValue
        }

        let context = Unmanaged.passUnretained(self).toOpaque()
        errno = 0
        let daemon = withUnsafePointer(to: &storage) { storagePointer in
            storagePointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                var options = pv_mhd_daemon_config(
                    flags: flags,
                    address: address,
                    thread_pool_size: UInt32(config.threadPoolSize),
                    connection_limit: UInt32(config.connectionLimit),
                    connection_timeout_seconds: UInt32(config.connectionTimeoutSeconds),
                    connection_memory_limit: config.memoryLimitPerConnection,
                    access_handler: mhdAccessHandler,
                    access_handler_cls: context,
                    request_completed: mhdRequestCompleted,
                    request_completed_cls: context
                )
                return pv_mhd_start_daemon(&options)
            }
        }
        guard let daemon else {
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
