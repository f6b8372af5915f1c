import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LibCrypto
@testable import PhoneVerifyClient

/// The built `phone-verify` binary on 127.0.0.1 (port 0) with a fresh data directory, as an app
/// would meet it: started as a process, its address read from "listening on http://…".
final class ServerProcess: @unchecked Sendable {
    static let sessionSecret = "client-tests-session-secret-0123456789abcdef"
    static let sessionIssuer = "https://auth.client-tests.example"
    static let sessionAudience = "phone-verify"
    static let grantSecret = "client-tests-grant-secret-0123456789abcdefgh"
    static let grantIssuer = "https://backend.client-tests.example"
    static let grantAudience = "phone-verify-grants"

    struct StartFailure: Error, CustomStringConvertible { let description: String }

    let process = Process()
    let base: URL
    let dataDirectory: String
    private let box = OutputBox()

    final class OutputBox: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func append(_ data: Data) { lock.withLock { text += String(decoding: data, as: UTF8.self) } }
        var all: String { lock.withLock { text } }
    }

    /// The binary: `PHONE_VERIFY_BINARY`, else the one built beside this test bundle, else the
    /// package's `.build/debug/phone-verify` (`swift build` / `swift test` build it).
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["PHONE_VERIFY_BINARY"] { return path }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("phone-verify").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for directory in [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("phone-verify").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/phone-verify").path
    }

    /// Starts the server with MFA (an HS256 main auth server) and a 3-second resend cooldown,
    /// plus `environment`; waits at most 20 s for it to listen.
    init(environment: [String: String] = [:]) throws {
        dataDirectory = NSTemporaryDirectory() + "phone-verify-client-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PHONE_VERIFY_") }
        env.merge([
            "PHONE_VERIFY_LISTEN": "127.0.0.1:0", "PHONE_VERIFY_DATA_DIR": dataDirectory, "PHONE_VERIFY_RESEND_COOLDOWN": "3",
            "PHONE_VERIFY_AUTH_CORE_HS256_SECRET": Self.sessionSecret, "PHONE_VERIFY_AUTH_CORE_ISSUER": Self.sessionIssuer,
            "PHONE_VERIFY_AUTH_CORE_AUDIENCE": Self.sessionAudience,
        ]) { $1 }
        env.merge(environment) { $1 }
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.environment = env
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        for pipe in [stdout, stderr] {
            let handle = pipe.fileHandleForReading
            let box = self.box
            // Drains the pipe for the process's whole life (the console sink writes every SMS).
            Thread.detachNewThread {
                while true {
                    let data = handle.availableData
                    if data.isEmpty { return }
                    box.append(data)
                }
            }
        }
        let deadline = Date().addingTimeInterval(20)
        var found: URL?
        while found == nil {
            let text = box.all
            if let range = text.range(of: #"listening on http://[0-9.:]+"#, options: .regularExpression) {
                found = URL(string: String(text[range].dropFirst("listening on ".count)))
            } else if !process.isRunning || Date() > deadline {
                if process.isRunning { process.terminate() }
                throw StartFailure(description: "phone-verify (\(Self.binary)) did not start:\n" + text)
            } else {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        base = found!
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }

    var log: String { box.all }

    func client(_ configuration: PhoneVerifyClient.Configuration = .init(requestTimeout: 10)) -> PhoneVerifyClient {
        PhoneVerifyClient(baseURL: base, configuration: configuration)
    }

    /// The code of a verification, from `GET /dev/messages` (waiting for it, at most 10 s).
    func code(for verificationID: String, phone: String) async throws -> String {
        try await messages(phone: phone, verificationID: verificationID, wait: true).first ?? { throw StartFailure(description: "no code for \(verificationID)") }()
    }

    /// The codes sent for a verification, newest first.
    func messages(phone: String, verificationID: String, wait: Bool = false) async throws -> [String] {
        var components = URLComponents(url: base.appendingPathComponent("dev/messages"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQueryItems = [
            URLQueryItem(name: "phone_number", value: phone.replacingOccurrences(of: "+", with: "%2B")),
            URLQueryItem(name: "verification_id", value: verificationID),
        ] + (wait ? [URLQueryItem(name: "wait", value: "2")] : [])
        let deadline = Date().addingTimeInterval(10)
        repeat {
            let (data, _) = try await URLSession.shared.data(from: components.url!)
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let codes = (object?["messages"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            if !codes.isEmpty || !wait { return codes }
        } while Date() < deadline
        return []
    }

    // MARK: Tokens the tests mint (HS256, LibCrypto's HMAC)

    static func hs256(_ claims: [String: Any], secret: String) -> String {
        let header = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(try! JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        let input = header + "." + payload
        let signature = HMAC.sha256(key: Array(secret.utf8), data: Array(input.utf8))
        return input + "." + Base64URL.encode(Data(signature))
    }

    /// A session token of the main auth server (docs/MFA.md: sub, sid, amr, auth_time).
    static func sessionToken(user: String, session: String = "sess-1") -> String {
        let now = Int(Date().timeIntervalSince1970)
        return hs256(
            ["iss": sessionIssuer, "aud": sessionAudience, "sub": user, "sid": session, "amr": ["pwd"], "auth_time": now, "iat": now, "exp": now + 600],
            secret: sessionSecret)
    }

    /// A grant of the app's backend for one start (docs/CHALLENGES.md `grant`).
    static func grant(phone: String) -> String {
        let now = Int(Date().timeIntervalSince1970)
        return hs256(
            ["iss": grantIssuer, "aud": grantAudience, "phone_number": phone, "action": "start", "iat": now, "exp": now + 120,
             "jti": UUID().uuidString],
            secret: grantSecret)
    }

    static let grantEnvironment = [
        "PHONE_VERIFY_CHALLENGE_PROVIDERS": "grant", "PHONE_VERIFY_CHALLENGE": "always", "PHONE_VERIFY_GRANT_ISSUER": grantIssuer,
        "PHONE_VERIFY_GRANT_AUDIENCE": grantAudience, "PHONE_VERIFY_GRANT_HS256_SECRET": grantSecret,
    ]
}
