import CMicroHTTPD

/// A `struct MHD_Daemon *`, which Swift sees as a non-Sendable `OpaquePointer`.
///
/// Safe to send because libmicrohttpd's daemon functions used here (`MHD_quiesce_daemon`,
/// `MHD_get_daemon_info`, `MHD_stop_daemon`) may be called from any thread, and
/// ``HTTPServer`` serialises them behind its lock so each runs at most once;
/// `MHD_add_connection` (the ``Acceptor``'s thread) is thread-safe with an ITC daemon, and the
/// acceptor is joined before `MHD_stop_daemon`.
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
