import Glibc
import HTTPServer
import HTTPMessages
import Synchronization

/// A responder built from a closure.
struct ClosureResponder: HTTPResponder {
    let handler: @Sendable (HTTPRequest) -> HTTPResponse

    init(_ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.handler = handler
    }

    func respond(to request: HTTPRequest) -> HTTPResponse { handler(request) }
}

/// Records every request the server saw, so tests can check what actually arrived.
final class RequestRecorder: Sendable {
    private let requests = Mutex<[HTTPRequest]>([])

    func record(_ request: HTTPRequest) { requests.withLock { $0.append(request) } }

    var all: [HTTPRequest] { requests.withLock { $0 } }
    var last: HTTPRequest? { requests.withLock { $0.last } }
    var count: Int { requests.withLock { $0.count } }
}

/// Starts an HTTPServer on 127.0.0.1:0, runs `body` with its base URL, and always shuts it down.
func withServer<T>(
    threads: Int = 2,
    _ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
    _ body: (_ baseURL: String) throws -> T
) throws -> T {
    let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadPoolSize: threads)
    let server = HTTPServer(configuration: configuration, responder: ClosureResponder(handler))
    try server.start()
    defer { server.shutdown(graceSeconds: 1) }
    return try body("http://127.0.0.1:\(server.port)")
}

/// A loopback port nobody listens on: bound to port 0, read back, then closed.
func unusedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    precondition(ok, "bind to 127.0.0.1:0 failed")
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Seconds elapsed while running `body`.
func measure<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = ContinuousClock.now
    let result = try body()
    let elapsed = ContinuousClock.now - start
    return (result, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}


/// A body stream producing `chunks` chunks of `chunkSize` bytes (sent chunked, no Content-Length).
final class FixedChunkStream: HTTPBodyStream {
    private let remaining: Mutex<Int>
    private let chunkSize: Int

    init(chunks: Int, chunkSize: Int) {
        remaining = Mutex(chunks)
        self.chunkSize = chunkSize
    }

    func next() -> [UInt8]? {
        remaining.withLock { remaining in
            guard remaining > 0 else { return nil }
            remaining -= 1
            return [UInt8](repeating: UInt8(ascii: "x"), count: chunkSize)
        }
    }

    func close() {}
}

/// A one-way latch a slow responder waits on, so a test can release it instead of sleeping.
final class Latch: Sendable {
    private let opened = Atomic<Bool>(false)

    func open() { opened.store(true, ordering: .releasing) }

    /// Waits until opened or `seconds` pass; true when opened.
    @discardableResult
    func wait(seconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !opened.load(ordering: .acquiring) {
            if ContinuousClock.now >= deadline { return false }
            usleep(5_000)
        }
        return true
    }
}
