import Dispatch
import Glibc
import HTTPServer
import HTTPMessages
import Synchronization
import Testing

@Suite("HTTPServer lifecycle")
struct LifecycleTests {
    /// Sleeps 300 ms before answering, and records that it started.
    private final class SlowResponder: HTTPResponder {
        let started = Atomic<Int>(0)
        func respond(to request: HTTPRequest) -> HTTPResponse {
            started.add(1, ordering: .releasing)
            usleep(300_000)
            return HTTPResponse(status: 200, body: Array("done \(request.path)".utf8))
        }
        func waitUntilStarted() {
            for _ in 0..<200 where started.load(ordering: .acquiring) == 0 { usleep(5_000) }
        }
    }

    /// Sends one request from a thread of its own; `wait()` returns its response.
    private final class BackgroundRequest: Sendable {
        private let group = DispatchGroup()
        private let result = Mutex<RawResponse?>(nil)

        init(port: Int, path: String) {
            DispatchQueue(label: "background-request").async(group: group) { [self] in
                let response = try? rawRequest(port: port, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
                result.withLock { $0 = response }
            }
        }

        func wait() -> RawResponse? {
            guard group.wait(timeout: .now() + 5) == .success else { return nil }
            return result.withLock { $0 }
        }
    }

    private static func configuration() -> HTTPServerConfiguration {
        HTTPServerConfiguration(host: "127.0.0.1", port: 0)
    }

    @Test func shutdownWaitsForAnInFlightRequest() throws {
        let responder = SlowResponder()
        let server = HTTPServer(configuration: Self.configuration(), responder: responder)
        try server.start()
        let port = server.port
        let request = BackgroundRequest(port: port, path: "/slow")
        responder.waitUntilStarted()
        #expect(server.inFlightRequests == 1)

        let begin = ContinuousClock.now
        server.shutdown(graceSeconds: 5)
        let took = ContinuousClock.now - begin

        let response = request.wait()
        #expect(response?.status == 200)
        #expect(response?.text == "done /slow")
        #expect(response?.header("Connection")?.lowercased() == "close")
        #expect(took >= .milliseconds(150) && took < .seconds(3))
        #expect(server.port == 0)
        #expect((try? RawHTTPConnection(port: port)) == nil)
    }

    @Test func shutdownGraceIsBounded() throws {
        let responder = SlowResponder()
        let server = HTTPServer(configuration: Self.configuration(), responder: responder)
        try server.start()
        let request = BackgroundRequest(port: server.port, path: "/slow")
        responder.waitUntilStarted()
        let begin = ContinuousClock.now
        server.shutdown(graceSeconds: 0.05)  // shorter than the request: stop anyway
        #expect(ContinuousClock.now - begin < .seconds(2))
        _ = request.wait()
    }

    @Test func stopAcceptingRefusesNewConnectionsButFinishesOpenOnes() throws {
        let responder = SlowResponder()
        let server = HTTPServer(configuration: Self.configuration(), responder: responder)
        try server.start()
        defer { server.shutdown(graceSeconds: 2) }
        let port = server.port
        let idle = try RawHTTPConnection(port: port)
        let request = BackgroundRequest(port: port, path: "/in-flight")
        responder.waitUntilStarted()

        server.stopAccepting()
        server.stopAccepting()  // idempotent
        #expect((try? RawHTTPConnection(port: port)) == nil)
        #expect(request.wait()?.text == "done /in-flight")
        // An already accepted keep-alive connection is still served.
        #expect(try idle.exchange("GET /late HTTP/1.1\r\nHost: x\r\n\r\n").text == "done /late")
    }

    @Test func shutdownDoesNotWaitForIdleKeepAliveConnections() throws {
        let responder = ClosureResponder { _ in HTTPResponse(status: 200, body: Array("ok".utf8)) }
        let server = HTTPServer(configuration: Self.configuration(), responder: responder)
        try server.start()
        let connection = try RawHTTPConnection(port: server.port)
        #expect(try connection.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n").status == 200)
        let begin = ContinuousClock.now
        server.shutdown(graceSeconds: 5)
        #expect(ContinuousClock.now - begin < .seconds(1))
        #expect(connection.waitForClose())
    }

    /// A client that connected just before the shutdown and sends its request a moment later
    /// (for a drained backlog connection, the request is usually already in the socket) is
    /// served, not reset: the shutdown waits for requests of connections it just accepted.
    @Test func aRequestOnAConnectionAcceptedJustBeforeShutdownIsServed() throws {
        let responder = ClosureResponder { request in HTTPResponse(status: 200, body: Array("ok \(request.path)".utf8)) }
        let server = HTTPServer(configuration: Self.configuration(), responder: responder)
        try server.start()
        let connection = try RawHTTPConnection(port: server.port)
        let stopped = DispatchGroup()
        let port = server.port
        DispatchQueue(label: "shutdown").async(group: stopped) { server.shutdown(graceSeconds: 5) }
        // Once new connections are refused, the shutdown is under way (and draining).
        for _ in 0..<200 where (try? RawHTTPConnection(port: port)) != nil { usleep(5_000) }
        let response = try connection.exchange("GET /late HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(response.status == 200 && response.text == "ok /late")
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(stopped.wait(timeout: .now() + 5) == .success)
    }

    @Test func startTwiceThrows() throws {
        let server = HTTPServer(configuration: Self.configuration(), responder: SlowResponder())
        try server.start()
        defer { server.shutdown(graceSeconds: 0) }
        #expect(throws: HTTPServerError.alreadyStarted) { try server.start() }
    }
}
