import HTTPServer
import HTTPMessages
import Testing

/// Echoes what the server parsed back as headers, so the tests can see the HTTPRequest.
private let echo = ClosureResponder { request in
    var headers = HTTPHeaders()
    headers.add("X-Method", request.method)
    headers.add("X-Path", request.path)
    headers.add("X-Remote", request.remoteAddress)
    for key in request.query.keys.sorted() {
        headers.add("X-Query-\(key)", "[\(request.query[key] ?? "")]")  // MHD drops empty header values
    }
    headers.add("X-Header-Names", request.headers.map(\.name).joined(separator: ","))
    headers.add("X-Custom", request.headers.values(for: "X-Custom").joined(separator: "|"))
    return HTTPResponse(status: 200, headers: headers, body: request.body)
}

@Suite("HTTPServer requests and responses")
struct RequestTests {
    @Test func echoesMethodPathQueryHeadersAndBody() throws {
        try withServer(responder: echo) { server in
            let body = "hello=world"
            let response = try rawRequest(
                port: server.port,
                "POST /v1/items%2Fx?a=1+2&b=%26%3D&a=second&flag HTTP/1.1\r\nHost: localhost\r\n"
                    + "X-Custom: one\r\nX-Custom: two\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(response.status == 200)
            #expect(response.header("X-Method") == "POST")
            #expect(response.header("X-Path") == "/v1/items%2Fx")  // percent-decoding is the router's job
            #expect(response.header("X-Query-a") == "[1 2]")  // first value wins, + is a space
            #expect(response.header("X-Query-b") == "[&=]")
            #expect(response.header("X-Query-flag") == "[]")
            #expect(response.header("X-Header-Names") == "Host,X-Custom,X-Custom,Content-Type,Content-Length")
            #expect(response.header("X-Custom") == "one|two")
            #expect(response.text == body)
        }
    }

    @Test func remoteAddressIsLoopback() throws {
        try withServer(responder: echo) { server in
            let response = try rawRequest(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(response.header("X-Remote") == "127.0.0.1")
        }
    }

    @Test func portZeroReportsTheBoundPort() throws {
        try withServer(responder: echo) { server in
            #expect(server.port > 0)
            #expect(server.port != 8080)
        }
    }

    @Test func responseCarriesRepeatedHeaders() throws {
        let responder = ClosureResponder { _ in
            HTTPResponse(
                status: 201,
                headers: HTTPHeaders([("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"), ("Content-Type", "text/plain")]),
                body: Array("created".utf8))
        }
        try withServer(responder: responder) { server in
            let response = try rawRequest(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(response.status == 201)
            #expect(response.values("Set-Cookie") == ["a=1", "b=2"])
            #expect(response.header("Content-Type") == "text/plain")
            #expect(response.header("Content-Length") == "7")
            #expect(response.header("Date") != nil)
            #expect(response.text == "created")
        }
    }

    @Test func responderStatusPassesThrough() throws {
        let responder = ClosureResponder { request in
            HTTPResponse(status: 404, headers: ["Content-Type": "application/json"],
                         body: Array(#"{"error":"\#(request.path) not found"}"#.utf8))
        }
        try withServer(responder: responder) { server in
            let response = try rawRequest(port: server.port, "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(response.status == 404)
            #expect(response.text == #"{"error":"/nowhere not found"}"#)
        }
    }

    @Test func emptyBodyAndHeadRequests() throws {
        let responder = ClosureResponder { _ in HTTPResponse(status: 204) }
        try withServer(responder: responder) { server in
            let connection = try RawHTTPConnection(port: server.port)
            #expect(try connection.exchange("DELETE /x HTTP/1.1\r\nHost: x\r\n\r\n").status == 204)
            #expect(try connection.exchange("GET /y HTTP/1.1\r\nHost: x\r\n\r\n").status == 204)
        }
    }

    @Test func invalidHostIsRejected() {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "localhost", port: 0), responder: echo)
        #expect(throws: HTTPServerError.invalidHost("localhost")) { try server.start() }
    }

    @Test func busyPortFailsToStart() throws {
        try withServer(responder: echo) { server in
            let second = HTTPServer(
                configuration: HTTPServerConfiguration(host: "127.0.0.1", port: server.port), responder: echo)
            #expect(throws: HTTPServerError.self) { try second.start() }
        }
    }

    @Test func bindsIPv6Loopback() throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "::1", port: 0), responder: echo)
        do {
            try server.start()
        } catch {
            return  // no IPv6 on this host: nothing to check
        }
        defer { server.shutdown(graceSeconds: 1) }
        #expect(server.port > 0)
        let response = try rawRequest(port: server.port, host: "::1", "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(response.header("X-Remote") == "::1")
        // Bound to ::1 only: the IPv4 loopback is not served.
        #expect((try? RawHTTPConnection(port: server.port)) == nil)
    }

    /// HEAD gets GET's headers, Content-Length included (RFC 9110 §9.3.2), and no body: the next
    /// response on the connection starts right after the head.
    @Test func headKeepsTheContentLengthAndSendsNoBody() throws {
        let responder = ClosureResponder { _ in HTTPResponse(status: 200, body: Array(#"{"status":"ok"}"#.utf8)) }
        try withServer(responder: responder) { server in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try connection.readHead()
            #expect(head.status == 200 && head.header("Content-Length") == "15")
            let get = try connection.exchange("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(get.status == 200 && get.text == #"{"status":"ok"}"#)
        }
    }
}
