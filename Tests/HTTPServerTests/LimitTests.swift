import HTTPServer
import HTTPMessages
import Testing

@Suite("HTTPServer limits and timeouts")
struct LimitTests {
    private static let tooLargeJSON =
        #"{"error":{"code":"payload_too_large","message":"request body exceeds 16384 bytes","details":{}}}"#

    @Test func announcedOversizedBodyGets413WithoutCallingTheResponder() throws {
        let calls = Counter()
        let responder = ClosureResponder { _ in calls.increment(); return HTTPResponse(status: 200) }
        try withServer(responder: responder) { server in
            let connection = try RawHTTPConnection(port: server.port)
            // Announce 1 MB but send only the head: the server must answer without waiting for it.
            let response = try connection.exchange(
                "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 1048576\r\n\r\n")
            #expect(response.status == 413)
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(response.text == Self.tooLargeJSON)
            #expect(calls.count == 0)
        }
    }

    /// A responder may shape the 413 per path (the Twilio-compatible API answers in Twilio's body).
    @Test func theResponderShapesThe413() throws {
        struct Shaping: HTTPResponder {
            func respond(to request: HTTPRequest) -> HTTPResponse { HTTPResponse(status: 200) }
            func bodyTooLarge(path: String, limit: Int) -> HTTPResponse? {
                path.hasPrefix("/v2/") ? HTTPResponse(status: 413, body: Array("shaped \(path) \(limit)".utf8)) : nil
            }
        }
        try withServer(responder: Shaping()) { server in
            let shaped = try RawHTTPConnection(port: server.port).exchange(
                "POST /v2/Services HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n")
            #expect(shaped.status == 413 && shaped.text == "shaped /v2/Services 16384")
            let plain = try RawHTTPConnection(port: server.port).exchange(
                "POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n")
            #expect(plain.status == 413 && plain.text == Self.tooLargeJSON)
        }
    }

    @Test func bodyExactlyAtTheLimitIsAccepted() throws {
        let responder = ClosureResponder { request in
            HTTPResponse(status: 200, body: Array("\(request.body.count)".utf8))
        }
        try withServer(responder: responder) { server in
            let body = String(repeating: "a", count: 16 * 1024)
            let response = try rawRequest(
                port: server.port,
                "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(response.status == 200)
            #expect(response.text == "16384")
        }
    }

    @Test func chunkedBodyOverTheLimitGets413() throws {
        let calls = Counter()
        let responder = ClosureResponder { _ in calls.increment(); return HTTPResponse(status: 200) }
        try withServer(responder: responder) { server in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = String(repeating: "b", count: 4096)
            for _ in 0..<5 { try connection.send("1000\r\n\(chunk)\r\n") }
            try connection.send("0\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.text == Self.tooLargeJSON)
            #expect(calls.count == 0)
        }
    }

    @Test func endlessChunkedUploadIsCutOff() throws {
        let responder = ClosureResponder { _ in HTTPResponse(status: 200) }
        try withServer(responder: responder) { server in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = "1000\r\n" + String(repeating: "c", count: 4096) + "\r\n"
            var sent = 0
            // Loopback socket buffers can hold several MiB, so the bound is generous.
            while sent < 64 << 20, (try? connection.send(chunk)) != nil { sent += 4096 }
            #expect(sent < 64 << 20)  // the server stopped reading long before 64 MiB
            #expect(connection.waitForClose())
        }
    }

    @Test func hugeHeaderIsRefusedAndTheServerKeepsServing() throws {
        let responder = ClosureResponder { _ in HTTPResponse(status: 200, body: Array("ok".utf8)) }
        try withServer(responder: responder) { server in
            let big = String(repeating: "x", count: 40 * 1024)
            let connection = try RawHTTPConnection(port: server.port)
            try? connection.send("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(big)\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 431 || response.status == 400)
            let after = try rawRequest(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(after.status == 200)
            #expect(after.text == "ok")
        }
    }

    @Test func slowClientIsDisconnectedAfterTheTimeout() throws {
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, connectionTimeoutSeconds: 1)
        let responder = ClosureResponder { _ in HTTPResponse(status: 200) }
        try withServer(configuration, responder: responder) { server in
            let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 5)
            try connection.send("GET / HTTP/1.1\r\nHost: x\r\n")  // head never finished
            let start = ContinuousClock.now
            #expect(connection.waitForClose())
            let waited = ContinuousClock.now - start
            #expect(waited < .seconds(4))
        }
    }
}
