import Glibc

/// A loopback listener whose accept queue is full (backlog 0, one connection never
/// accepted), so further connection attempts hang in SYN retransmission: a way to make a
/// connect time out without leaving 127.0.0.1.
final class FullBacklogListener {
    let port: Int
    private let listener: Int32
    private let filler: Int32

    init() {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = listener
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 && listen(fd, 0) == 0
            }
        }
        precondition(ok, "listen on 127.0.0.1:0 failed")
        port = Int(UInt16(bigEndian: address.sin_port))
        // Linux queues backlog + 1 connections; this one fills the queue.
        filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let filled = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) == 0 }
        }
        precondition(filled, "filler connect failed")
    }

    deinit {
        close(filler)
        close(listener)
    }
}
