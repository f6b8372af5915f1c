import Foundation
import HTTPServer
import HTTPMessages

/// A vendor API on a real port of 127.0.0.1 that records requests and answers as told: shared by
/// the gateway tests and each vendor's tests (GatewayTests, VendorsTests).
public final class FakeVendor: HTTPResponder, @unchecked Sendable {
    public enum Mode: Sendable {
        case reply(Int, String, [(String, String)])
        case sleep(Double)
    }

    private let lock = NSLock()
    private var modes: [Mode] = []
    private var fallback: Mode
    private var recorded: [HTTPRequest] = []
    private var server: HTTPServer!

    public init(_ fallback: Mode) throws {
        self.fallback = fallback
        server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadPoolSize: 4), responder: self)
        try server.start()
    }

    public var base: String { "http://127.0.0.1:\(server.port)" }

    /// Answers the next requests with these modes, then with the fallback.
    public func script(_ next: [Mode]) {
        lock.lock()
        modes = next
        lock.unlock()
    }

    public func setFallback(_ mode: Mode) {
        lock.lock()
        fallback = mode
        lock.unlock()
    }

    public var requests: [HTTPRequest] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    public func stop() { server.shutdown(graceSeconds: 1) }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        lock.lock()
        recorded.append(request)
        let mode = modes.isEmpty ? fallback : modes.removeFirst()
        lock.unlock()
        switch mode {
        case .reply(let status, let body, let headers):
            var h = HTTPHeaders(headers)
            h.set("Content-Type", "application/json")
            return HTTPResponse(status: status, headers: h, body: Array(body.utf8))
        case .sleep(let seconds):
            Thread.sleep(forTimeInterval: seconds)
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
        }
    }
}

/// A port on 127.0.0.1 where nothing listens.
public func closedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    close(fd)
    return Int(UInt16(bigEndian: addr.sin_port))
}

public func formFields(_ request: HTTPRequest) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in String(decoding: request.body, as: UTF8.self).split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
        fields[parts[0]] = parts.count > 1 ? parts[1] : ""
    }
    return fields
}
