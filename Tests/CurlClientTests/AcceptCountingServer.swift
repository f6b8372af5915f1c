import Glibc
import Synchronization

/// A minimal keep-alive HTTP/1.1 server on raw sockets that counts accepted TCP connections,
/// giving connection-reuse tests a count that does not come from libcurl itself.
///
/// It answers every request head (bodies are not supported) with `200 ok`. Each connection
/// runs on its own thread with a 5 s receive timeout, so everything ends in bounded time.
/// With `closeAfterResponse`, it silently closes each connection after one response (no
/// `Connection: close` header), like a server whose idle timeout fires between requests.
final class AcceptCountingServer: Sendable {
    let port: Int
    private let closeAfterResponse: Bool
    private let listener: Int32
    private let accepted = Atomic<Int>(0)
    private let served = Atomic<Int>(0)
    private let acceptThread = Mutex<pthread_t?>(nil)

    init(closeAfterResponse: Bool = false) {
        self.closeAfterResponse = closeAfterResponse
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = listener
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 && listen(fd, 128) == 0
            }
        }
        precondition(ok, "listen on 127.0.0.1:0 failed")
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = spawn { [self] in acceptLoop() }
        acceptThread.withLock { $0 = thread }
    }

    /// TCP connections accepted so far.
    var acceptedConnections: Int { accepted.load(ordering: .acquiring) }
    /// Requests answered so far.
    var servedRequests: Int { served.load(ordering: .acquiring) }

    /// Stops accepting and joins the accept thread; open connections end when clients close
    /// them or after their receive timeout.
    func stop() {
        Glibc.shutdown(listener, Int32(SHUT_RDWR))
        if let thread = acceptThread.withLock({ $0.take() }) { pthread_join(thread, nil) }
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            accepted.add(1, ordering: .releasing)
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            pthread_detach(spawn { [self] in serve(connection) })
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        let response = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok".utf8)
        let terminator = Array("\r\n\r\n".utf8)
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            while let end = pending.firstRange(of: terminator) {
                pending.removeSubrange(..<end.upperBound)
                served.add(1, ordering: .releasing)
                let sent = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard sent == response.count, !closeAfterResponse else { return }
            }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            pending.append(contentsOf: chunk[..<count])
        }
    }

    private func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t {
        final class Job {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        var thread = pthread_t()
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, job)
        precondition(result == 0, "pthread_create failed")
        return thread
    }
}
