import CurlClient
import HTTPMessages
import Testing

/// Requests go out exactly as built and responses come back whole, against a real server.
@Suite struct RoundTripTests {
    let client = HTTPClient()

    @Test func getCarriesMethodPathQueryAndHeaders() throws {
        let recorder = RequestRecorder()
        try withServer({ request in
            recorder.record(request)
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("hello".utf8))
        }) { base in
            let response = try client.send(HTTPClientRequest(
                url: base + "/keys/jwks.json?kid=a%20b&x=1",
                headers: [(name: "Accept", value: "application/json"), (name: "X-Trace", value: "t-1")]
            ))
            #expect(response.status == 200)
            #expect(response.text == "hello")
            #expect(response.header("content-type") == "text/plain")
            #expect(response.totalSeconds > 0 && response.totalSeconds < 5)
            let seen = try #require(recorder.last)
            #expect(seen.method == "GET")
            #expect(seen.path == "/keys/jwks.json")
            #expect(seen.query == ["kid": "a b", "x": "1"])
            #expect(seen.headers["Accept"] == "application/json")
            #expect(seen.headers["X-Trace"] == "t-1")
            #expect(seen.headers["User-Agent"] == "phone-verify")
            #expect(seen.body.isEmpty)
            #expect(seen.remoteAddress == "127.0.0.1")
        }
    }

    @Test func postEchoesBodyBytesExactly() throws {
        let recorder = RequestRecorder()
        try withServer({ request in
            recorder.record(request)
            return HTTPResponse(status: 201, body: request.body)
        }) { base in
            // Includes NUL and non-UTF-8 bytes: the body must not be treated as a C string.
            let body: [UInt8] = Array("{\"to\":\"+15550100\"}".utf8) + [0, 0xFF, 0x80, 10]
            let response = try client.send(.json(url: base + "/messages", body: body))
            #expect(response.status == 201)
            #expect(response.body == body)
            let seen = try #require(recorder.last)
            #expect(seen.method == "POST")
            #expect(seen.body == body)
            #expect(seen.headers["Content-Type"] == "application/json")
            #expect(seen.headers["Content-Length"] == String(body.count))
        }
    }

    @Test func formBodyArrivesExactlyAsEncoded() throws {
        let recorder = RequestRecorder()
        try withServer({ request in
            recorder.record(request)
            return HTTPResponse(status: 200)
        }) { base in
            let fields = [("To", "+15550100"), ("Body", "Your code: 123 456 & more=ok"), ("From", "Acme")]
            _ = try client.send(.form(url: base + "/2010-04-01/Messages.json", fields: fields))
            let seen = try #require(recorder.last)
            let expected = "To=%2B15550100&Body=Your%20code%3A%20123%20456%20%26%20more%3Dok&From=Acme"
            #expect(String(decoding: seen.body, as: UTF8.self) == expected)
            #expect(seen.headers["Content-Type"] == "application/x-www-form-urlencoded")
            #expect(FormEncoding.decode(String(decoding: seen.body, as: UTF8.self)).map { [$0.0, $0.1] } == fields.map { [$0.0, $0.1] })
        }
    }

    @Test func basicAuthHeaderArrives() throws {
        let recorder = RequestRecorder()
        try withServer({ request in
            recorder.record(request)
            return HTTPResponse(status: 200)
        }) { base in
            var request = HTTPClientRequest.form(url: base + "/sms", fields: [("a", "b")])
            request.basicAuth = BasicAuth(user: "AC123", password: "s3cr:et é")
            _ = try client.send(request)
            let seen = try #require(recorder.last)
            #expect(seen.headers["Authorization"] == BasicAuth.header(user: "AC123", password: "s3cr:et é"))
            #expect(seen.headers["Authorization"] == "Basic QUMxMjM6czNjcjpldCDDqQ==")
        }
    }

    @Test(arguments: [400, 401, 404, 429, 500, 503])
    func errorStatusesAreReturnedNotThrown(status: Int) throws {
        try withServer({ _ in HTTPResponse(status: status, body: Array("{\"error\":\(status)}".utf8)) }) { base in
            let response = try client.send(HTTPClientRequest(method: "POST", url: base + "/x"))
            #expect(response.status == status)
            #expect(response.text == "{\"error\":\(status)}")
            #expect(!response.isSuccess)
        }
    }

    @Test func responseHeadersAreReadableCaseInsensitively() throws {
        try withServer({ _ in
            var headers = HTTPHeaders()
            headers.add("X-Request-Id", "r-42")
            headers.add("Set-Cookie", "a=1")
            headers.add("Set-Cookie", "b=2")
            headers.add("Location", "https://elsewhere.example/")
            return HTTPResponse(status: 302, headers: headers)
        }) { base in
            let response = try client.send(HTTPClientRequest(url: base + "/redirect"))
            #expect(response.status == 302, "redirects are returned, never followed")
            #expect(response.header("x-request-id") == "r-42")
            #expect(response.header("X-REQUEST-ID") == "r-42")
            #expect(response.headers(named: "set-cookie") == ["a=1", "b=2"])
            #expect(response.header("Location") == "https://elsewhere.example/")
            #expect(response.header("Missing") == nil)
        }
    }

    @Test(arguments: ["PUT", "PATCH", "DELETE", "OPTIONS"])
    func otherMethodsAreSentAsGiven(method: String) throws {
        let recorder = RequestRecorder()
        try withServer({ request in
            recorder.record(request)
            return HTTPResponse(status: 200, body: request.body)
        }) { base in
            let body: [UInt8] = method == "DELETE" ? [] : Array("payload".utf8)
            let response = try client.send(HTTPClientRequest(method: method, url: base + "/r", body: body))
            #expect(response.body == body)
            #expect(recorder.last?.method == method)
            #expect(recorder.last?.body == body)
        }
    }

    @Test func headRequestReturnsHeadersWithoutBody() throws {
        try withServer({ _ in HTTPResponse(status: 200, headers: ["X-A": "1"], body: Array("ignored".utf8)) }) { base in
            let response = try client.send(HTTPClientRequest(method: "HEAD", url: base + "/h"))
            #expect(response.status == 200)
            #expect(response.header("X-A") == "1")
            #expect(response.body.isEmpty)
        }
    }

    @Test func noImplicitContentTypeExpectOrEmptyHeaderLoss() throws {
        let recorder = RequestRecorder()
        try withServer({ request in
            recorder.record(request)
            return HTTPResponse(status: 200)
        }) { base in
            let body = [UInt8](repeating: UInt8(ascii: "a"), count: 12 * 1024)
            _ = try client.send(HTTPClientRequest(
                method: "POST", url: base + "/raw",
                headers: [(name: "X-Empty", value: ""), (name: "User-Agent", value: "custom/1")], body: body
            ))
            let seen = try #require(recorder.last)
            #expect(seen.headers["Content-Type"] == nil)
            #expect(seen.headers["Expect"] == nil)
            #expect(seen.headers.contains("X-Empty"))
            #expect(seen.headers["X-Empty"] == "")
            #expect(seen.headers.values(for: "User-Agent") == ["custom/1"])
            #expect(seen.body == body)
        }
    }
}
