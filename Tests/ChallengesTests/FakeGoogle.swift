import CurlClient
import Foundation
import HTTPMessages
import HTTPServer
import LibCrypto
import VerifyCore

/// Google as the Play Integrity provider sees it, on a real port of 127.0.0.1: an OAuth token
/// endpoint that checks the RS256 service-account assertion with the test key's public half, and
/// a decodeIntegrityToken endpoint that wants the access token it issued and answers as told.
final class FakeGoogle: HTTPResponder, @unchecked Sendable {
    // @unchecked: every var below is guarded by `lock`.
    static let clientEmail = "verifier@phone-verify-test.iam.gserviceaccount.com"
    static let scope = "https://www.googleapis.com/auth/playintegrity"

    enum Decode: Sendable {
        /// 200 with `{"tokenPayloadExternal": payload}`.
        case verdict(JSONValue)
        case status(Int)
    }

    private let publicKey: VerifyingKey
    private let lock = NSLock()
    private var server: HTTPServer?
    private var decodeAnswers: [Decode] = []
    private var decodeFallback: Decode = .status(500)
    private var issued: [String] = []
    private var tokenStatus: Int?
    private(set) var tokenRequests = 0
    private(set) var decodeRequests: [(path: String, integrityToken: String?, authorization: String?)] = []
    private(set) var refusedAssertions = 0

    init(publicKey: VerifyingKey) throws {
        self.publicKey = publicKey
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadPoolSize: 4), responder: self)
        try server.start()
        self.server = server
    }

    var base: String { "http://127.0.0.1:\(server?.port ?? 0)" }
    var tokenURI: String { base + "/token" }

    /// Answers the next decode requests with `answers`, then with `fallback`.
    func decode(_ answers: [Decode], fallback: Decode? = nil) {
        lock.withLock {
            decodeAnswers = answers
            if let fallback { decodeFallback = fallback }
        }
    }

    /// The token endpoint answers with this status (nil: normally).
    func failTokens(_ status: Int?) { lock.withLock { tokenStatus = status } }

    /// Forgets the access tokens issued so far (Google revoked them).
    func revokeAccessTokens() { lock.withLock { issued = [] } }

    var counts: (tokens: Int, decodes: Int, refused: Int) { lock.withLock { (tokenRequests, decodeRequests.count, refusedAssertions) } }
    var lastDecode: (path: String, integrityToken: String?, authorization: String?)? { lock.withLock { decodeRequests.last } }

    func stop() { server?.shutdown(graceSeconds: 1) }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        if request.method == "POST" && request.path == "/token" { return token(request) }
        if request.method == "POST" && request.path.hasPrefix("/v1/") && request.path.hasSuffix(":decodeIntegrityToken") {
            return decode(request)
        }
        return Self.json(404, ["error": "not found"])
    }

    private func token(_ request: HTTPRequest) -> HTTPResponse {
        lock.lock()
        tokenRequests += 1
        let forcedStatus = tokenStatus
        lock.unlock()
        if let forcedStatus { return Self.json(forcedStatus, ["error": "backend_error"]) }
        let fields = Dictionary(FormEncoding.decode(String(decoding: request.body, as: UTF8.self)), uniquingKeysWith: { a, _ in a })
        guard fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = fields["assertion"],
            assertionIsValid(assertion)
        else {
            lock.withLock { refusedAssertions += 1 }
            return Self.json(400, ["error": "invalid_grant"])
        }
        let accessToken = "ya29.test-" + UUID().uuidString
        lock.withLock { issued.append(accessToken) }
        return Self.json(200, ["access_token": .string(accessToken), "expires_in": 3599, "token_type": "Bearer"])
    }

    private func assertionIsValid(_ assertion: String) -> Bool {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let claimBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = try? JSONValue.parse(headerBytes), let claims = try? JSONValue.parse(claimBytes),
            header["alg"] == "RS256",
            publicKey.verify(signature: signature, message: Array((parts[0] + "." + parts[1]).utf8))
        else { return false }
        guard claims["iss"]?.stringValue == Self.clientEmail, claims["scope"]?.stringValue == Self.scope,
            claims["aud"]?.stringValue == tokenURI, let iat = claims["iat"]?.intValue, let exp = claims["exp"]?.intValue
        else { return false }
        // The service runs on a manual clock in tests: only the shape of the times is checked.
        return exp > iat && exp - iat <= 3600
    }

    private func decode(_ request: HTTPRequest) -> HTTPResponse {
        let body = try? JSONValue.parse(request.body)
        let authorization = request.headers["Authorization"]
        lock.lock()
        decodeRequests.append((request.path, body?["integrity_token"]?.stringValue, authorization))
        let authorised = authorization.map { $0.hasPrefix("Bearer ") && issued.contains(String($0.dropFirst(7))) } ?? false
        let answer = decodeAnswers.isEmpty ? decodeFallback : decodeAnswers.removeFirst()
        lock.unlock()
        guard authorised else { return Self.json(401, ["error": ["code": 401, "status": "UNAUTHENTICATED"]]) }
        switch answer {
        case .verdict(let payload): return Self.json(200, ["tokenPayloadExternal": payload])
        case .status(let status): return Self.json(status, ["error": ["code": .int(Int64(status)), "message": "canned"]])
        }
    }

    private static func json(_ status: Int, _ body: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body.encoded())
    }
}

