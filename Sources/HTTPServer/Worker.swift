import CMicroHTTPD
import Synchronization

/// One libmicrohttpd daemon with one internal epoll thread and no listen socket: the
/// ``Acceptor`` adds each accepted connection to the worker holding the fewest.
///
/// The count goes up when the acceptor adds a connection and down when libmicrohttpd reports
/// it closed, so a burst of new connections sees the ones just added (libmicrohttpd's own
/// count only moves once the worker thread has picked a connection up).
final class Worker: @unchecked Sendable {
    // @unchecked: `daemon` is set once, before the acceptor or any connection exists.
    var daemon: DaemonHandle?
    let connections = Atomic<Int>(0)
}

/// MHD's connection notice (cls: the ``Worker``): a closed connection frees its place.
func mhdConnectionNotice(
    cls: UnsafeMutableRawPointer?, connection: OpaquePointer?, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    code: MHD_ConnectionNotificationCode
) {
    guard let cls, code == .CONNECTION_NOTIFY_CLOSED else { return }
    Unmanaged<Worker>.fromOpaque(cls).takeUnretainedValue().connections.subtract(1, ordering: .relaxed)
}
