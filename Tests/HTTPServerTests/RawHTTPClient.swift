import Glibc

/// A parsed HTTP/1.1 response read off a raw socket.
struct RawResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// Whether the body came with `Transfer-Encoding: chunked`.
    var chunked: Bool

    func values(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    func header(_ name: String) -> String? { values(name).first }

    var text: String { String(decoding: body, as: UTF8.self) }
}

struct RawClientError: Error, CustomStringConvertible {
    var description: String
}

/// A blocking TCP connection to a loopback address with receive/send timeouts, so every test is bounded.
final class RawHTTPConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, host: String = "127.0.0.1", timeoutSeconds: Int = 5) throws {
        let isIPv6 = host.contains(":")
        fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawClientError(description: "socket() failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw RawClientError(description: "connect to \(host):\(port) failed: errno \(code)")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw RawClientError(description: "send failed: errno \(errno)") }
            sent += n
        }
    }

    /// Reads more bytes into the buffer; false at EOF or on error/timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Waits until the server closes the connection; true if it did (EOF or reset) before the
    /// socket timeout, false if the timeout expired with the connection still open.
    func waitForClose() -> Bool {
        while true {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { continue }
            if n == 0 { return true }
            let code = errno
            return !(code == EAGAIN || code == EWOULDBLOCK)
        }
    }

    private func readLine() throws -> String {
        while true {
            if let index = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<index])
                buffer.removeFirst(index + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard fill() else { throw RawClientError(description: "connection ended inside a line") }
        }
    }

    private func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard fill() else { throw RawClientError(description: "connection ended inside the body") }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Reads one complete response (Content-Length, chunked, or until close).
    func readResponse() throws -> RawResponse {
        var response = try readHead()
        let status = response.status
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            response.chunked = true
            while true {
                let sizeLine = try readLine()
                guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
                    throw RawClientError(description: "bad chunk size '\(sizeLine)'")
                }
                if size == 0 {
                    while try !readLine().isEmpty {}
                    break
                }
                response.body += try readBytes(size)
                _ = try readLine()
            }
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            response.body = try readBytes(length)
        } else if status != 204 && status != 304 {
            while fill() {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// Reads a response's status and headers only (the answer to HEAD has no body).
    func readHead() throws -> RawResponse {
        let statusLine = try readLine()
        guard let status = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw RawClientError(description: "bad status line '\(statusLine)'")
        }
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...].drop(while: { $0 == " " }))))
        }
        return RawResponse(status: status, headers: headers, body: [], chunked: false)
    }

    /// Sends a request and reads its response.
    func exchange(_ request: String) throws -> RawResponse {
        try send(request)
        return try readResponse()
    }
}

/// One request on a fresh connection.
func rawRequest(
    port: Int, host: String = "127.0.0.1", _ request: String, timeoutSeconds: Int = 5
) throws -> RawResponse {
    try RawHTTPConnection(port: port, host: host, timeoutSeconds: timeoutSeconds).exchange(request)
}
