import Glibc
import HTTPServer
import HTTPMessages
import Testing

@Suite("HTTPServer stream bodies")
struct StreamTests {
    private static func streaming(_ stream: TestStream) -> ClosureResponder {
        ClosureResponder { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], stream: stream)
        }
    }

    @Test func streamArrivesChunkedAndComplete() throws {
        let big = [UInt8](repeating: UInt8(ascii: "z"), count: 100_000)  // larger than one MHD block
        let chunks: [[UInt8]] = [Array("data: one\n\n".utf8), [], Array("data: two\n\n".utf8), big, [], Array("end".utf8)]
        let stream = TestStream(chunks, delayMilliseconds: 20)
        try withServer(responder: Self.streaming(stream)) { server in
            let connection = try RawHTTPConnection(port: server.port)
            let response = try connection.exchange("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(response.status == 200)
            #expect(response.chunked)
            #expect(response.header("Content-Type") == "text/event-stream")
            #expect(response.body == chunks.flatMap { $0 })
            #expect(stream.waitForClose() == 1)
            // The connection is still usable after the stream ended.
            let again = try connection.exchange("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(again.status == 200)
        }
    }

    @Test func blockingStreamDoesNotStallOtherRequests() throws {
        // One worker thread: if next() ran on it, the second request would wait a whole second.
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadPoolSize: 1)
        let stream = TestStream([Array("slow".utf8)], delayMilliseconds: 1000)
        let responder = ClosureResponder { request in
            if request.path == "/events" {
                return HTTPResponse(status: 200, headers: HTTPHeaders(), stream: stream)
            }
            return HTTPResponse(status: 200, body: Array("fast".utf8))
        }
        try withServer(configuration, responder: responder) { server in
            let streamConnection = try RawHTTPConnection(port: server.port)
            try streamConnection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            let begin = ContinuousClock.now
            let fast = try rawRequest(port: server.port, "GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(fast.text == "fast")
            #expect(ContinuousClock.now - begin < .milliseconds(500))
            #expect(try streamConnection.readResponse().text == "slow")
        }
    }

    @Test func shutdownEndsAnEndlessStream() throws {
        let stream = TestStream([Array("data: hello\n\n".utf8)], delayMilliseconds: 50, endless: true)
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), responder: Self.streaming(stream))
        try server.start()
        let connection = try RawHTTPConnection(port: server.port)
        try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(200_000)
        let begin = ContinuousClock.now
        server.shutdown(graceSeconds: 5)
        #expect(ContinuousClock.now - begin < .seconds(2))
        let response = try connection.readResponse()  // properly terminated chunked body
        #expect(response.text == "data: hello\n\n")
        #expect(stream.waitForClose() == 1)
    }

    @Test func clientDisconnectClosesTheStream() throws {
        let stream = TestStream([Array(": heartbeat\n\n".utf8)], delayMilliseconds: 20, repeating: true)
        try withServer(responder: Self.streaming(stream)) { server in
            do {
                let connection = try RawHTTPConnection(port: server.port)
                try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                usleep(100_000)
            }  // closed here
            // The server notices when it next writes, so a heartbeat-sending stream is closed
            // while the server keeps running.
            #expect(stream.waitForClose() == 1)
        }
    }
}
