@testable import HTTPServer
import HTTPMessages
import Testing

/// Request framing that two parties could read differently is refused: a request carrying both
/// `Content-Length` and `Transfer-Encoding` is how request smuggling starts (a proxy in front
/// honours one header, the server the other). RFC 9112 §6.3 lets the server treat it as an
/// error; it must then close the connection, since the next request's start is unknown.
@Suite("HTTPServer request framing")
struct FramingTests {
    @Test func contentLengthWithTransferEncodingGets400AndTheConnectionCloses() throws {
        let calls = Counter()
        let responder = ClosureResponder { _ in calls.increment(); return HTTPResponse(status: 200) }
        try withServer(responder: responder) { server in
            let connection = try RawHTTPConnection(port: server.port)
            // The chunked body ends after "abc"; a reader trusting Content-Length would take the
            // smuggled request as part of this body (or the other way round).
            let response = try connection.exchange(
                "POST /v1/verifications HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 30\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "3\r\nabc\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(response.status == 400)
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(response.text.hasPrefix(#"{"error":{"code":"invalid_request","#))
            #expect(response.header("X-Request-Id")?.hasPrefix("req_") == true)
            #expect(connection.waitForClose())
            #expect(calls.count == 0)
        }
    }

    /// Either header alone is ordinary framing and keeps the connection.
    @Test func eitherHeaderAloneIsServedOnAKeptConnection() throws {
        let responder = ClosureResponder { request in HTTPResponse(status: 200, body: Array("\(request.body.count)".utf8)) }
        try withServer(responder: responder) { server in
            let connection = try RawHTTPConnection(port: server.port)
            let chunked = try connection.exchange(
                "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
            #expect(chunked.status == 200 && chunked.text == "3")
            let sized = try connection.exchange("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nab")
            #expect(sized.status == 200 && sized.text == "2")
        }
    }

    /// Variants a lenient proxy may frame differently (found by an attack review): each is a 400
    /// that closes the connection, and the request behind it is never served.
    @Test(arguments: [
        "Content-Length: 5\r\nTransfer-Encoding : chunked\r\n",  // whitespace before the colon
        "Content-Length: 5\r\nTransfer-Encoding:\r\n chunked\r\n",  // obs-fold
        "Content-Length : 0\r\nTransfer-Encoding: chunked\r\n",
        "Content-Length: 0\r\nContent-Length: 37\r\n",  // two lengths
        "Transfer-Encoding: identity\r\n",  // a coding the server does not implement
        "Transfer-Encoding: chunked, identity\r\n",
        "Transfer-Encoding: xchunked\r\n",
        "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
        "Content-Length: +5\r\n",
    ])
    func ambiguousFramingVariantsGet400AndTheConnectionCloses(headers: String) throws {
        let calls = Counter()
        let responder = ClosureResponder { _ in calls.increment(); return HTTPResponse(status: 200) }
        try withServer(responder: responder) { server in
            let connection = try RawHTTPConnection(port: server.port)
            let response = try connection.exchange(
                "POST /v1/verifications HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n"
                    + "0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n")
            // (libmicrohttpd refuses some of them itself, with its own 400 body.)
            #expect(response.status == 400)
            #expect(connection.waitForClose())
            #expect(calls.count == 0)
        }
    }

    @Test func framingCheckJudgesParsedFields() {
        #expect(FramingCheck.problem([("Host", "x"), ("Content-Length", "12")]) == nil)
        #expect(FramingCheck.problem([("transfer-encoding", " Chunked ")]) == nil)
        #expect(FramingCheck.problem([("Content-Length", "3"), ("content-length", "3")]) == nil)  // same value twice
        #expect(FramingCheck.problem([("Content-Length", "3"), ("Transfer-Encoding", "chunked")]) != nil)
        #expect(FramingCheck.problem([("Bad Name", "x")]) != nil)
        #expect(FramingCheck.problem([("", "x")]) != nil)
        #expect(FramingCheck.problem([("Content-Length", "5"), ("Transfer-Encodingchunked", "")]) != nil)
    }
}
