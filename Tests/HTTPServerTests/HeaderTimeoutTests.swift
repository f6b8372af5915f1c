import Dispatch
import Glibc
import HTTPServer
import HTTPMessages
import Synchronization
import Testing

/// A request head must be complete within the header timeout, however slowly its bytes come:
/// libmicrohttpd's idle timeout alone never closes a client that sends a byte every few seconds.
@Suite("HTTPServer header timeout")
struct HeaderTimeoutTests {
    static func server(headerTimeout: Double) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, headerTimeoutSeconds: headerTimeout),
            responder: ClosureResponder { request in HTTPResponse(status: 200, body: Array("ok \(request.path)".utf8)) })
        try server.start()
        return server
    }

    /// Sends `piece` every 200 ms from a thread of its own until stopped (errors ignored).
    final class Trickle: Sendable {
        private let stopped = Atomic<Bool>(false)
        private let group = DispatchGroup()

        init(_ connection: RawHTTPConnection, piece: String) {
            nonisolated(unsafe) let connection = connection
            DispatchQueue(label: "trickle").async(group: group) { [self] in
                while !stopped.load(ordering: .acquiring) {
                    if (try? connection.send(piece)) == nil { return }
                    usleep(200_000)
                }
            }
        }

        func stop() {
            stopped.store(true, ordering: .releasing)
            _ = group.wait(timeout: .now() + 2)
        }
    }

    @Test func aHeadTricklingInIsCutOffAtTheTimeout() throws {
        let server = try Self.server(headerTimeout: 1)
        defer { server.shutdown(graceSeconds: 1) }
        let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 5)
        try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n")
        let begin = ContinuousClock.now
        let trickle = Trickle(connection, piece: "X")
        defer { trickle.stop() }
        #expect(connection.waitForClose())
        let took = ContinuousClock.now - begin
        #expect(took >= .milliseconds(900) && took < .seconds(3))
    }

    @Test func theNextHeadOnAKeepAliveConnectionHasItsOwnTimeout() throws {
        let server = try Self.server(headerTimeout: 1)
        defer { server.shutdown(graceSeconds: 1) }
        let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 5)
        #expect(try connection.exchange("GET /first HTTP/1.1\r\nHost: x\r\n\r\n").text == "ok /first")
        usleep(1_200_000)  // longer than the header timeout, before the next head begins: the clock runs since the response
        try connection.send("GET /second HTTP/1.1\r\n")
        let trickle = Trickle(connection, piece: "Y")
        defer { trickle.stop() }
        #expect(connection.waitForClose())
    }

    @Test func aSlowButTimelyHeadIsServed() throws {
        let server = try Self.server(headerTimeout: 2)
        defer { server.shutdown(graceSeconds: 1) }
        let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 5)
        for piece in ["GET /timely HT", "TP/1.1\r\nHo", "st: x\r\n"] {
            try connection.send(piece)
            usleep(300_000)
        }
        #expect(try connection.exchange("\r\n").text == "ok /timely")
        // Requests keep working on the connection after that.
        #expect(try connection.exchange("GET /again HTTP/1.1\r\nHost: x\r\n\r\n").text == "ok /again")
    }
}
