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
    let deadlines: HeaderDeadlines

    init(deadlines: HeaderDeadlines) {
        self.deadlines = deadlines
    }
}

/// MHD's connection notice (cls: the ``Worker``): a started connection's header deadline is
/// tied to it; a closed connection frees its place and its deadline.
func mhdConnectionNotice(
    cls: UnsafeMutableRawPointer?, connection: OpaquePointer?, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    code: MHD_ConnectionNotificationCode
) {
    guard let cls else { return }
    let worker = Unmanaged<Worker>.fromOpaque(cls).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        if let connection, let socketContext { worker.deadlines.started(connection, context: socketContext) }
    case .CONNECTION_NOTIFY_CLOSED:
        if let socketContext { worker.deadlines.closed(context: socketContext) }
        worker.connections.subtract(1, ordering: .relaxed)
    default:
        break
    }
}
