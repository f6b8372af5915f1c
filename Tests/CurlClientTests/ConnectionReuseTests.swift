import CurlClient
import HTTPMessages
import Synchronization
import Glibc
import Testing
import ThreadTesting

/// The handle pool reuses kept-alive connections and is safe under concurrent callers.
@Suite struct ConnectionReuseTests {
    @Test func sequentialRequestsReuseOneConnection() throws {
        let server = AcceptCountingServer()
        defer { server.stop() }
        let client = HTTPClient()
        var newConnections = 0
        for index in 0..<200 {
            let response = try client.send(HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/ping?i=\(index)"))
            #expect(response.text == "ok")
            newConnections += response.newConnections
        }
        #expect(server.servedRequests == 200)
        #expect(server.acceptedConnections == 1, "accepted \(server.acceptedConnections) connections")
        let statistics = client.statistics
        #expect(statistics.requests == 200)
        #expect(statistics.failures == 0)
        #expect(statistics.handlesCreated == 1)
        #expect(statistics.idleHandles == 1)
        #expect(statistics.connectionsOpened == 1)
        #expect(newConnections == 1)
    }

    @Test func keepAliveWorksAgainstHTTPServerToo() throws {
        let client = HTTPClient()
        try withServer({ request in HTTPResponse(status: 200, body: request.body) }) { base in
            for index in 0..<100 {
                let body = Array("message \(index)".utf8)
                let response = try client.send(.json(url: base + "/echo", body: body))
                #expect(response.body == body)
            }
        }
        #expect(client.statistics.connectionsOpened <= 2, "\(client.statistics)")
    }

    @Test func eightThreadsTimesFiftyRequestsAllSucceed() throws {
        let recorder = Atomic<Int>(0)
        let client = HTTPClient()
        let failures = Mutex<[String]>([])
        try withServer(threads: 2, { request in
            recorder.add(1, ordering: .relaxed)
            return HTTPResponse(status: 200, body: request.body)
        }) { base in
            onThreads(8) { thread in
                for index in 0..<50 {
                    let body = Array("t\(thread)-r\(index)".utf8)
                    do {
                        let response = try client.send(.json(url: base + "/echo", body: body))
                        if response.status != 200 || response.body != body {
                            failures.withLock { $0.append("t\(thread) r\(index): \(response.status) \(response.text)") }
                        }
                    } catch {
                        failures.withLock { $0.append("t\(thread) r\(index): \(error)") }
                    }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(recorder.load(ordering: .relaxed) == 400)
        let statistics = client.statistics
        #expect(statistics.requests == 400)
        #expect(statistics.handlesCreated <= 8)
        #expect(statistics.connectionsOpened <= statistics.handlesCreated * 2, "\(statistics)")
    }

    @Test func poolKeepsAtMostMaxIdleHandles() throws {
        let server = AcceptCountingServer()
        defer { server.stop() }
        let client = HTTPClient(configuration: HTTPClientConfiguration(maxIdleHandles: 2))
        onThreads(6) { _ in
            for _ in 0..<20 {
                _ = try? client.send(HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/"))
            }
        }
        #expect(server.servedRequests == 120)
        #expect(client.statistics.idleHandles <= 2)
        #expect(client.statistics.failures == 0)
    }
}

/// Connections the server dropped while idle are replaced transparently.
@Suite struct StaleConnectionTests {
    @Test func serverClosingIdleConnectionsDoesNotFailRequests() throws {
        let server = AcceptCountingServer(closeAfterResponse: true)
        defer { server.stop() }
        let client = HTTPClient()
        for _ in 0..<20 {
            let response = try client.send(HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/"))
            #expect(response.text == "ok")
            // Give the server's FIN time to arrive so the client sees a dead cached connection.
            usleep(2_000)
        }
        #expect(server.acceptedConnections == 20)
        #expect(client.statistics.connectionsOpened == 20)
        #expect(client.statistics.failures == 0)
    }
}
