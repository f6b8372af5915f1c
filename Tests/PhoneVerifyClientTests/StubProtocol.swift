import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import PhoneVerifyClient

/// Canned answers through URLSession: a URLProtocol registered in the session configuration's
/// `protocolClasses`. Each stub owns a host name (`stub-<uuid>.test`), so parallel tests never
/// see each other's requests.
final class StubServer: @unchecked Sendable {
    enum Reply {
        case json(Int, String, headers: [String: String] = [:])
        case failure(URLError.Code)
    }

    struct Recorded {
        let method: String
        let path: String
        let headers: [String: String]
        let body: [String: Any]?
        func header(_ name: String) -> String? { headers.first { $0.key.lowercased() == name.lowercased() }?.value }
    }

    let host = "stub-\(UUID().uuidString.lowercased()).test"
    private let lock = NSLock()
    private var replies: [Reply]
    private var recorded: [Recorded] = []

    /// Answers with `replies` in order (the last one repeats).
    init(_ replies: [Reply]) {
        self.replies = replies
        StubProtocol.register(self)
    }

    var requests: [Recorded] { lock.withLock { recorded } }
    var baseURL: URL { URL(string: "http://\(host)")! }

    func client(
        _ configuration: PhoneVerifyClient.Configuration = .init(retryBaseDelay: 0),
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = { _ in }
    ) -> PhoneVerifyClient {
        var configuration = configuration
        configuration.sleep = sleep
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.protocolClasses = [StubProtocol.self]
        return PhoneVerifyClient(baseURL: baseURL, configuration: configuration, session: URLSession(configuration: sessionConfiguration))
    }

    fileprivate func answer(_ request: URLRequest) -> Reply {
        var body: [String: Any]?
        var data = request.httpBody
        if data == nil, let stream = request.httpBodyStream {
            var bytes = Data()
            stream.open()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while stream.hasBytesAvailable {
                let n = stream.read(&buffer, maxLength: buffer.count)
                if n <= 0 { break }
                bytes.append(buffer, count: n)
            }
            stream.close()
            data = bytes
        }
        if let data, !data.isEmpty { body = try? JSONSerialization.jsonObject(with: data) as? [String: Any] }
        return lock.withLock {
            recorded.append(
                Recorded(
                    method: request.httpMethod ?? "GET", path: request.url?.path ?? "", headers: request.allHTTPHeaderFields ?? [:],
                    body: body))
            return replies.count > 1 ? replies.removeFirst() : replies[0]
        }
    }
}

final class StubProtocol: URLProtocol {
    nonisolated(unsafe) private static var stubs: [String: StubServer] = [:]
    private static let lock = NSLock()

    static func register(_ stub: StubServer) { lock.withLock { stubs[stub.host] = stub } }

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let host = request.url?.host, let stub = Self.lock.withLock({ Self.stubs[host] }) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        switch stub.answer(request) {
        case .failure(let code):
            client?.urlProtocol(self, didFailWithError: URLError(code))
        case .json(let status, let text, let headers):
            var all = ["Content-Type": "application/json"]
            all.merge(headers) { $1 }
            let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: all)!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: Data(text.utf8))
            client?.urlProtocolDidFinishLoading(self)
        }
    }

    override func stopLoading() {}
}

enum Canned {
    static let verification = """
        {"id": "ver_0a1b", "status": "pending", "phone_number": "+14155552671", "channel": "sms",
         "expires_at": "2026-11-30T12:05:00Z", "resend_available_at": "2026-11-30T12:00:30Z",
         "attempts_remaining": 5, "sends_remaining": 4, "code_length": 6, "created_at": "2026-11-30T12:00:00Z"}
        """

    /// An unsigned-looking JWT with the given claims (the client never verifies signatures).
    static func jwt(_ claims: String) -> String {
        Base64URL.encode(Data(#"{"alg":"ES256","kid":"k1"}"#.utf8)) + "." + Base64URL.encode(Data(claims.utf8)) + ".c2ln"
    }

    static func approved(_ claims: String = #"{"sub":"tel:+14155552671","phone_number":"+14155552671","acr":"aal1","amr":["sms"],"exp":1796087092,"aud":"main-auth","vid":"ver_0a1b"}"#) -> String {
        #"{"id": "ver_0a1b", "status": "approved", "phone_number": "+14155552671", "credential": {"token": "\#(jwt(claims))", "token_type": "Bearer", "expires_in": 300}}"#
    }

    static func error(_ code: String, _ details: String = "{}") -> String {
        #"{"error": {"code": "\#(code)", "message": "m", "details": \#(details)}}"#
    }
}
