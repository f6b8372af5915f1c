import CurlClient
import Foundation
import HTTPMessages
import HTTPServer
import LibCrypto
import Testing
import VerifyCore
@testable import Challenges

/// A captcha vendor on a real port of 127.0.0.1: it records every request and answers as told
/// (a status and a body, or silence for a while), so the verifiers run their real libcurl calls.
final class FakeSiteVerifyVendor: HTTPResponder, @unchecked Sendable {
    enum Answer: Sendable {
        case json(String)
        case status(Int, String)
        case hang(seconds: Double)
    }

    // `lock` guards `answer` and `recorded`; `server` is set once in init.
    private let lock = NSLock()
    private var answer: Answer
    private var recorded: [HTTPRequest] = []
    private var server: HTTPServer?

    init(_ answer: Answer) throws {
        self.answer = answer
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadPoolSize: 2), responder: self)
        try server.start()
        self.server = server
    }

    var base: String { "http://127.0.0.1:\(server?.port ?? 0)" }

    func answer(_ next: Answer) {
        lock.withLock { answer = next }
    }

    var requests: [HTTPRequest] { lock.withLock { recorded } }

    func stop() { server?.shutdown(graceSeconds: 1) }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let answer = lock.withLock {
            recorded.append(request)
            return self.answer
        }
        switch answer {
        case .json(let body):
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        case .status(let status, let body):
            return HTTPResponse(status: status, headers: ["Content-Type": "text/html"], body: Array(body.utf8))
        case .hang(let seconds):
            Thread.sleep(forTimeInterval: seconds)
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(#"{"success":true}"#.utf8))
        }
    }
}

/// Shared inputs of the siteverify tests.
enum SiteVerifyFixture {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let context = ChallengeContext(action: "start", phoneNumber: "+14155552671", clientIP: "203.0.113.7", now: now)
    static let token = "0.tok-" + String(repeating: "a1B2", count: 100)

    static func http() -> HTTPClient {
        HTTPClient(configuration: HTTPClientConfiguration(connectTimeout: 1, totalTimeout: 2))
    }

    static func submission(_ provider: String, token: String = token) -> ChallengeSubmission {
        ChallengeSubmission(provider: provider, token: token)
    }

    /// An RFC 3339 instant `secondsAgo` before `now`, with milliseconds as Turnstile writes it.
    static func timestamp(_ secondsAgo: TimeInterval) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: now - secondsAgo)
    }

    static func form(_ request: HTTPRequest) -> [String: String] {
        Dictionary(FormEncoding.decode(String(decoding: request.body, as: UTF8.self)), uniquingKeysWith: { first, _ in first })
    }

    static func hexSHA256(_ text: String) -> String {
        Hex.encode(Digest.sha256(Array(text.utf8)))
    }

    /// The error `body` throws, or nil (recorded as an issue) when it does not throw one.
    static func refusal(_ body: () throws -> Void) -> VerifyError? {
        do {
            try body()
            Issue.record("expected a refusal")
            return nil
        } catch let error as VerifyError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }
}
