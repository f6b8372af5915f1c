import Dispatch
import HTTPServer
import HTTPMessages
import Synchronization
import Testing

@Suite("HTTPServer connections")
struct ConnectionTests {
    private static let ok = ClosureResponder { request in
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                     body: Array(#"{"path":"\#(request.path)"}"#.utf8))
    }

    @Test func keepAliveServesTwoRequestsOnOneConnection() throws {
        try withServer(responder: Self.ok) { server in
            let connection = try RawHTTPConnection(port: server.port)
            let first = try connection.exchange("GET /one HTTP/1.1\r\nHost: x\r\n\r\n")
            let second = try connection.exchange("GET /two HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(first.status == 200)
            #expect(first.text == #"{"path":"/one"}"#)
            #expect(second.text == #"{"path":"/two"}"#)
            for response in [first, second] {
                #expect(response.header("Connection")?.lowercased() != "close")
            }
        }
    }

    @Test func keepAliveWithBodies() throws {
        let echo = ClosureResponder { HTTPResponse(status: 200, body: $0.body) }
        try withServer(responder: echo) { server in
            let connection = try RawHTTPConnection(port: server.port)
            for index in 0..<5 {
                let body = String(repeating: "\(index)", count: 1000 * (index + 1))
                let response = try connection.exchange(
                    "PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                #expect(response.text == body)
                #expect(response.header("Connection")?.lowercased() != "close")
            }
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        try withServer(responder: Self.ok) { server in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().text == #"{"path":"/a"}"#)
            #expect(try connection.readResponse().text == #"{"path":"/b"}"#)
        }
    }

    @Test func twoHundredConcurrentRequestsFromSeveralThreads() throws {
        try withServer(responder: Self.ok) { server in
            let port = server.port
            let answered = Atomic<Int>(0)
            let group = DispatchGroup()
            let threads = 8, perThread = 25
            for thread in 0..<threads {
                // A serial queue of its own gives each client a real thread of its own.
                DispatchQueue(label: "client-\(thread)").async(group: group) {
                    for index in 0..<perThread {
                        let path = "/t\(thread)/\(index)"
                        guard let connection = try? RawHTTPConnection(port: port),
                              let response = try? connection.exchange("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n"),
                              response.status == 200, response.text == #"{"path":"\#(path)"}"#
                        else { continue }
                        answered.add(1, ordering: .relaxed)
                    }
                }
            }
            #expect(group.wait(timeout: .now() + 20) == .success)
            #expect(answered.load(ordering: .relaxed) == threads * perThread)
        }
    }
}
