import Credentials
import LibCrypto
import Foundation
import HTTPServer
import HTTPMessages
import Testing
import VerifyCore
import VerifyTesting

/// The main auth server as the tests see it: signing keys, a JWKS served over real HTTP on
/// 127.0.0.1 (the served set can change: rotation, outages), and a count of JWKS requests.
final class FakeAuthServer: HTTPResponder, @unchecked Sendable {
    static let issuer = "https://auth.example.test"
    static let audience = "phone-verify"

    private let lock = NSLock()
    private var served: [[String: String]] = []
    private var status = 200
    private var rawBody: [UInt8]?
    private var delay: Double = 0
    private var count = 0
    private var server: HTTPServer?
    private var boundPort: Int

    /// Starts serving at once on `port` (0: any free port), or only on ``start()`` when `listening` is false.
    init(serving jwks: [[String: String]] = [], port: Int = 0, listening: Bool = true) throws {
        served = jwks
        boundPort = port
        if listening { try start() }
    }

    /// Starts listening on the port given at init (for "the auth server was down at start").
    func start() throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: port, threadPoolSize: 4), responder: self)
        try server.start()
        lock.lock()
        self.server = server
        boundPort = server.port
        lock.unlock()
    }

    var port: Int {
        lock.lock()
        defer { lock.unlock() }
        return boundPort
    }

    var jwksURL: String { "http://127.0.0.1:\(port)/.well-known/jwks.json" }

    /// JWKS requests received so far.
    var requests: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func serve(_ jwks: [[String: String]]) {
        lock.lock()
        served = jwks
        status = 200
        rawBody = nil
        lock.unlock()
    }

    /// Answers with this status and body instead of the JWKS (outage, garbage).
    func fail(status: Int, body: String) {
        lock.lock()
        self.status = status
        rawBody = Array(body.utf8)
        lock.unlock()
    }

    /// Sleeps this long before each answer (to hold a fetch in flight).
    func setDelay(_ seconds: Double) {
        lock.lock()
        delay = seconds
        lock.unlock()
    }

    func stop() {
        lock.lock()
        let server = self.server
        self.server = nil
        lock.unlock()
        server?.shutdown(graceSeconds: 1)
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        lock.lock()
        count += 1
        let (jwks, status, rawBody, delay) = (served, status, rawBody, delay)
        lock.unlock()
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        guard request.path == "/.well-known/jwks.json" else { return HTTPResponse(status: 404) }
        let body = rawBody ?? JWKSFixture.document(jwks)
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }
}

/// Test keys, generated once (RSA generation is slow) and shared by every test.
enum TestKeys {
    static let ed25519 = try! SigningKey.generate(.ed25519)
    static let p256 = try! SigningKey.generate(.es256)
    static let rsa = try! SigningKey.generate(.rs256)
    /// Keys the auth server does not publish (same kids reused for the wrong-key tests).
    static let otherEd25519 = try! SigningKey.generate(.ed25519)
    static let otherP256 = try! SigningKey.generate(.es256)
    static let otherRSA = try! SigningKey.generate(.rs256)
    /// Rotated-in keys.
    static let nextEd25519 = try! SigningKey.generate(.ed25519)
    /// PhoneVerify's own credential key.
    static let own = try! SigningKey.generate(.ed25519)

    static let hs256Secret = "a-shared-hs256-secret-of-at-least-32-bytes!"
}

enum JWKSFixture {
    /// A public JWK with `kid` (unless nil), `alg` (the key's unless `declaresAlg` is false) and `use`.
    static func jwk(_ key: SigningKey, kid: String?, declaresAlg: Bool = true, use: String? = "sig") -> [String: String] {
        var jwk = try! key.publicJWK()
        if let kid { jwk["kid"] = kid }
        if declaresAlg { jwk["alg"] = key.algorithm.rawValue }
        if let use { jwk["use"] = use }
        return jwk
    }

    /// The auth server's usual set: one key of each algorithm.
    static var standard: [[String: String]] {
        [jwk(TestKeys.ed25519, kid: "ed-1"), jwk(TestKeys.p256, kid: "ec-1"), jwk(TestKeys.rsa, kid: "rsa-1")]
    }

    static func document(_ jwks: [[String: String]]) -> [UInt8] {
        let keys = jwks.map { jwk in JSONValue.object(jwk.keys.sorted().map { JSONMember($0, .string(jwk[$0]!)) }) }
        return JSONValue.object([JSONMember("keys", .array(keys))]).encoded()
    }
}

/// Builds JWTs the way an auth server would, and broken ones the way an attacker would.
enum Mint {
    /// Standard claims of a fresh session token at `now`: 10 minutes of validity.
    static func claims(
        at now: Date, subject: String = "user_alice", issuer: String = FakeAuthServer.issuer,
        audience: JSONValue = .string(FakeAuthServer.audience)
    ) -> [String: JSONValue] {
        let t = Int64(now.timeIntervalSince1970)
        return [
            "iss": .string(issuer), "aud": audience, "sub": .string(subject), "iat": .int(t), "nbf": .int(t),
            "exp": .int(t + 600), "auth_time": .int(t - 120), "sid": .string("sid_\(subject)"),
            "amr": ["pwd"], "acr": "aal1", "jti": .string(UUID().uuidString),
        ]
    }

    static func object(_ members: [String: JSONValue]) -> JSONValue {
        .object(members.keys.sorted().map { JSONMember($0, members[$0]!) })
    }

    /// `base64url(header).base64url(claims)`.
    static func signingInput(header: [String: JSONValue], claims: [String: JSONValue]) -> String {
        LibCrypto.Base64URL.encode(object(header).encoded()) + "." + LibCrypto.Base64URL.encode(object(claims).encoded())
    }

    /// A token signed by `key`; the header's `alg` defaults to the key's.
    static func token(
        _ key: SigningKey, kid: String?, alg: String? = nil, claims: [String: JSONValue],
        extraHeader: [String: JSONValue] = [:]
    ) -> String {
        var header = extraHeader
        header["alg"] = .string(alg ?? key.algorithm.rawValue)
        header["typ"] = "JWT"
        if let kid { header["kid"] = .string(kid) }
        let input = signingInput(header: header, claims: claims)
        return input + "." + LibCrypto.Base64URL.encode(try! key.sign(Array(input.utf8)))
    }

    /// An HS256 token MACed with `secret` (any bytes: a real secret or, for attacks, key material).
    static func hs256(secret: [UInt8], kid: String?, claims: [String: JSONValue], alg: String = "HS256") -> String {
        var header: [String: JSONValue] = ["alg": .string(alg), "typ": "JWT"]
        if let kid { header["kid"] = .string(kid) }
        let input = signingInput(header: header, claims: claims)
        return input + "." + LibCrypto.Base64URL.encode(HMAC.sha256(key: secret, data: Array(input.utf8)))
    }

    /// A token with an arbitrary raw header and signature.
    static func raw(header: [String: JSONValue], claims: [String: JSONValue], signature: [UInt8]) -> String {
        signingInput(header: header, claims: claims) + "." + LibCrypto.Base64URL.encode(signature)
    }
}

/// Expects `verify` to throw `VerifyError(.unauthenticated)` (optionally with this reason) whose
/// message never contains the token or any of its parts.
func expectRejected(
    _ verifier: any SessionVerifier, _ token: String, _ reason: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let principal = try verifier.verify(token)
        Issue.record("token accepted for \(principal.subject)", sourceLocation: sourceLocation)
    } catch let error as VerifyError {
        #expect(error.code == .unauthenticated, sourceLocation: sourceLocation)
        if let reason { #expect(error.message == reason, sourceLocation: sourceLocation) }
        for part in token.split(separator: ".") where part.count >= 4 {
            #expect(!error.message.contains(part), "the error quotes the token", sourceLocation: sourceLocation)
        }
        #expect(error.details.isEmpty, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected a VerifyError, got \(error)", sourceLocation: sourceLocation)
    }
}

/// A verifier for the fake auth server's JWKS URL with the usual issuer and audience.
func makeVerifier(
    _ server: FakeAuthServer, clock: ManualClock, own: OwnCredentials? = nil, hs256Secret: String? = nil,
    leeway: Int = 30
) throws -> SessionTokenVerifier {
    try SessionTokenVerifier(
        configuration: AuthCoreConfiguration(
            jwksURL: server.jwksURL, hs256Secret: hs256Secret, issuer: FakeAuthServer.issuer,
            audience: FakeAuthServer.audience, leewaySeconds: leeway),
        own: own, clock: clock)
}

/// A port on 127.0.0.1 where nothing listens (bound, read back and closed).
func unusedLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
