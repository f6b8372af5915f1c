import CurlClient
import HTTPMessages
import Testing

/// Transport failures become the right ``HTTPClientError`` within bounded time.
@Suite struct FailureTests {
    @Test func slowResponderTimesOut() throws {
        let release = Latch()
        defer { release.open() }
        let client = HTTPClient(configuration: HTTPClientConfiguration(totalTimeout: 0.5))
        try withServer({ _ in
            release.wait(seconds: 5)
            return HTTPResponse(status: 200)
        }) { base in
            let (result, elapsed) = measure { Result { () throws(HTTPClientError) in try client.send(HTTPClientRequest(url: base + "/slow")) } }
            release.open()
            #expect(throws: HTTPClientError.timeout) { try result.get() }
            #expect(HTTPClientError.timeout.isRetryable)
            #expect(elapsed >= 0.45 && elapsed < 2.5, "took \(elapsed) s")
        }
    }

    @Test func perRequestTimeoutOverridesConfiguration() throws {
        let release = Latch()
        defer { release.open() }
        let client = HTTPClient(configuration: HTTPClientConfiguration(totalTimeout: 30))
        try withServer({ _ in
            release.wait(seconds: 5)
            return HTTPResponse(status: 200)
        }) { base in
            let (result, elapsed) = measure {
                Result { () throws(HTTPClientError) in
                    try client.send(HTTPClientRequest(url: base + "/slow", timeoutSeconds: 0.3))
                }
            }
            release.open()
            #expect(throws: HTTPClientError.timeout) { try result.get() }
            #expect(elapsed < 2.5, "took \(elapsed) s")
        }
    }

    @Test func refusedConnectionIsRetryableConnectionFailure() {
        let client = HTTPClient()
        let port = unusedPort()
        let (result, elapsed) = measure {
            Result { () throws(HTTPClientError) in try client.send(HTTPClientRequest(url: "http://127.0.0.1:\(port)/")) }
        }
        guard case .failure(let error) = result, case .connectionFailed(let message) = error else {
            Issue.record("expected connectionFailed, got \(result)")
            return
        }
        #expect(error.isRetryable)
        #expect(!message.isEmpty)
        #expect(elapsed < 2)
        #expect(client.statistics.failures == 1)
    }

    @Test func connectTimeoutIsAConnectionFailureNotATimeout() {
        let listener = FullBacklogListener()
        let client = HTTPClient(configuration: HTTPClientConfiguration(connectTimeout: 0.3, totalTimeout: 5))
        let (result, elapsed) = measure {
            Result { () throws(HTTPClientError) in try client.send(HTTPClientRequest(url: "http://127.0.0.1:\(listener.port)/")) }
        }
        // Nothing was sent, so this is reported as a (safely retryable) connection failure.
        guard case .failure(let error) = result, case .connectionFailed(let message) = error else {
            Issue.record("expected connectionFailed, got \(result)")
            return
        }
        // libcurl words it "Timeout was reached", "Connection timeout after 300 ms" or "Connection
        // timed out after 300 milliseconds", depending on where in the connect the timer fired.
        let lowered = message.lowercased()
        #expect(lowered.contains("timeout") || lowered.contains("timed out"), "\(message)")
        #expect(error.isRetryable)
        #expect(elapsed >= 0.25 && elapsed < 2.5, "took \(elapsed) s")
    }

    @Test func bodyOverLimitWithContentLengthIsTooLarge() throws {
        let client = HTTPClient(configuration: HTTPClientConfiguration(maxResponseBytes: 1000))
        try withServer({ request in
            let size = request.path == "/exact" ? 1000 : 5000
            return HTTPResponse(status: 200, body: [UInt8](repeating: 7, count: size))
        }) { base in
            #expect(throws: HTTPClientError.tooLarge) { try client.send(HTTPClientRequest(url: base + "/big")) }
            let exact = try client.send(HTTPClientRequest(url: base + "/exact"))
            #expect(exact.body.count == 1000)
            #expect(!HTTPClientError.tooLarge.isRetryable)
        }
    }

    @Test func chunkedBodyOverLimitIsTooLarge() throws {
        let client = HTTPClient(configuration: HTTPClientConfiguration(maxResponseBytes: 1000))
        try withServer({ _ in
            HTTPResponse(status: 200, headers: HTTPHeaders(), stream: FixedChunkStream(chunks: 20, chunkSize: 300))
        }) { base in
            #expect(throws: HTTPClientError.tooLarge) { try client.send(HTTPClientRequest(url: base + "/stream")) }
            // The handle is still usable after an aborted transfer.
            #expect(throws: HTTPClientError.tooLarge) { try client.send(HTTPClientRequest(url: base + "/stream")) }
        }
    }

    @Test(arguments: [
        "", "127.0.0.1/no-scheme", "ftp://127.0.0.1/file", "file:///etc/passwd", "gopher://x/",
        "http://exa mple.com/", "http://[::1/", "http://127.0.0.1:99999/", "http://host/\r\nX-Injected: 1",
    ])
    func invalidURLsAreRejected(url: String) {
        let client = HTTPClient()
        do {
            _ = try client.send(HTTPClientRequest(url: url))
            Issue.record("expected invalidURL for \(url)")
        } catch {
            guard case .invalidURL = error else {
                Issue.record("expected invalidURL for \(url), got \(error)")
                return
            }
            #expect(!error.isRetryable)
        }
    }

    @Test func httpIsRefusedWhenOnlyHTTPSIsAllowed() {
        let client = HTTPClient(configuration: HTTPClientConfiguration(allowedSchemes: ["https"]))
        #expect(throws: HTTPClientError.invalidURL("scheme \"http\" is not allowed")) {
            try client.send(HTTPClientRequest(url: "http://127.0.0.1:1/"))
        }
    }

    @Test(arguments: [
        ("Bad Name", "v"), ("X-Inject", "a\r\nEvil: 1"), ("", "v"), ("X-Nul", "a\u{0}b"), ("Col:on", "v"),
    ])
    func headersThatCannotBeSentAreRejected(name: String, value: String) {
        let client = HTTPClient()
        do {
            _ = try client.send(HTTPClientRequest(url: "http://127.0.0.1:1/", headers: [(name: name, value: value)]))
            Issue.record("expected invalidRequest")
        } catch {
            guard case .invalidRequest = error else {
                Issue.record("expected invalidRequest, got \(error)")
                return
            }
        }
    }

    @Test func httpsAgainstPlainHTTPServerFailsWithTLSError() throws {
        let recorder = RequestRecorder()
        let client = HTTPClient(configuration: HTTPClientConfiguration(totalTimeout: 3))
        try withServer({ request in
            recorder.record(request)
            return HTTPResponse(status: 200)
        }) { plainBase in
            let httpsURL = plainBase.replacingPrefix("http://", with: "https://") + "/"
            let (result, elapsed) = measure {
                Result { () throws(HTTPClientError) in try client.send(HTTPClientRequest(url: httpsURL)) }
            }
            guard case .failure(let error) = result, case .tls = error else {
                Issue.record("expected a TLS error, got \(result)")
                return
            }
            #expect(!error.isRetryable)
            #expect(elapsed < 3.5)
            #expect(recorder.count == 0, "no request may reach the server in plain text")
        }
    }
}

extension String {
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
