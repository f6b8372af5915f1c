import CMicroHTTPD

/// A `struct MHD_Daemon *`, which Swift sees as a non-Sendable `OpaquePointer`.
///
/// Safe to send because the calls made with it, `MHD_add_connection` (the ``Acceptor``'s
/// thread) and `MHD_stop_daemon` (shutdown, after the acceptor was joined), may come from any
/// thread of an ITC daemon.
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// A `struct MHD_Connection *` kept by a ``StreamPump`` so another thread can resume it.
///
/// Safe to send because the only call made from a foreign thread is `MHD_resume_connection`,
/// which libmicrohttpd documents as thread-safe, and the pump only makes it while the
/// connection is suspended (a suspended connection cannot be closed or freed).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
