import App
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import VerifyCore

@Suite(.serialized) struct LiveFlowTests {
    let phone = "+14155552671"

    @Test func fullFlowOverRealHTTPWithRealSQLite() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let started = try server.call("POST", "/v1/verifications", json: #"{"phone_number":"(415) 555-2671","default_region":"US"}"#)
        #expect(started.status == 201)
        #expect(started.json["phone_number"] == .string(phone))
        let id = try #require(started.json["id"]?.stringValue)
        let code = try server.code(for: id, phone: phone)
        #expect(server.console.contains { $0.hasPrefix("SMS to +1 415-555-2671 (\(id), sign_in): code \(code), expires ") })
        // The dev inbox records a message as it is handed to the gateway; the outcome is written
        // just after, so the status may lag the code by a moment.
        var get = try server.call("GET", "/v1/verifications/\(id)")
        let deadline = Date().addingTimeInterval(5)
        while get.json["delivery"]?["status"] != "sent" && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            get = try server.call("GET", "/v1/verifications/\(id)")
        }
        #expect(get.json["delivery"]?["status"] == "sent")
        #expect(get.json["delivery"]?["gateway"] == "console")
        let checked = try server.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#)
        #expect(checked.status == 200)
        #expect(checked.json["credential"]?["token"] != nil)
        #expect(FileManager.default.fileExists(atPath: server.dataDirectory + "/phone-verify.db"))
        #expect(FileManager.default.fileExists(atPath: server.dataDirectory + "/signing-key.pem"))
    }

    @Test func aPendingVerificationSurvivesARestartAndKeysStayTheSame() throws {
        let directory = LiveServer.temporaryDirectory()
        let first = try LiveServer(dataDirectory: directory)
        let id = try #require(try first.call("POST", "/v1/verifications", json: #"{"phone_number":"\#(phone)"}"#).json["id"]?.stringValue)
        let code = try first.code(for: id, phone: phone)
        let jwks = try first.call("GET", "/.well-known/jwks.json").json
        first.stop()

        let second = try LiveServer(dataDirectory: directory)
        defer { second.stop() }
        #expect(try second.call("GET", "/.well-known/jwks.json").json == jwks)
        let checked = try second.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#)
        #expect(checked.status == 200)
        #expect(checked.json["status"] == "approved")
    }

    /// 50 parallel wrong guesses against one verification: exactly 5 are counted as incorrect
    /// (422) and the rest are refused (429); the right code afterwards is refused too.
    @Test func parallelWrongGuessesNeverPassTheCap() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let id = try #require(try server.call("POST", "/v1/verifications", json: #"{"phone_number":"\#(phone)"}"#).json["id"]?.stringValue)
        let code = try server.code(for: id, phone: phone)
        let wrong = code == "000000" ? "111111" : "000000"
        let lock = NSLock()
        nonisolated(unsafe) var statuses: [Int] = []
        DispatchQueue.concurrentPerform(iterations: 50) { _ in
            let status = (try? server.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(wrong)"}"#).status) ?? -1
            lock.lock()
            statuses.append(status)
            lock.unlock()
        }
        #expect(statuses.filter { $0 == 422 }.count == 5)
        #expect(statuses.filter { $0 == 429 }.count == 45)
        #expect(try server.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#).status == 429)
        #expect(try server.call("GET", "/v1/verifications/\(id)").json["status"] == "max_attempts_reached")
    }

    /// 20 parallel correct checks: exactly one approval.
    @Test func parallelCorrectChecksApproveOnce() throws {
        let server = try LiveServer()
        defer { server.stop() }
        let id = try #require(try server.call("POST", "/v1/verifications", json: #"{"phone_number":"\#(phone)"}"#).json["id"]?.stringValue)
        let code = try server.code(for: id, phone: phone)
        let lock = NSLock()
        nonisolated(unsafe) var statuses: [Int] = []
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            let status = (try? server.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#).status) ?? -1
            lock.lock()
            statuses.append(status)
            lock.unlock()
        }
        #expect(statuses.filter { $0 == 200 }.count == 1)
        #expect(statuses.filter { $0 == 409 }.count == 19)
    }

    @Test func logsNeverHoldTheCodeTheFullNumberTheTokenOrTheSecret() throws {
        let server = try LiveServer()
        let id = try #require(try server.call("POST", "/v1/verifications", json: #"{"phone_number":"\#(phone)"}"#).json["id"]?.stringValue)
        let code = try server.code(for: id, phone: phone)
        let checked = try server.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#)
        let token = try #require(checked.json["credential"]?["token"]?.stringValue)
        let secret = try String(contentsOfFile: server.dataDirectory + "/code-secret", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        server.stop()
        let lines = server.logs.lines
        #expect(lines.count > 3)
        for line in lines {
            #expect(!line.contains("4155552671"))
            #expect(!line.replacingOccurrences(of: id, with: "").contains(code))
            #expect(!line.contains(token) && !line.contains(String(token.split(separator: ".")[2])))
            #expect(!line.contains(secret))
        }
    }

    @Test func productionModeRefusesToStartWithoutKeysAndWithTheConsoleSink() {
        #expect(throws: ConfigurationError.self) {
            _ = try Configuration.load(environment: ["PHONE_VERIFY_MODE": "production"])
        }
        do {
            _ = try Configuration.load(environment: ["PHONE_VERIFY_MODE": "production"])
        } catch let error as ConfigurationError {
            #expect(error.problems.contains { $0.hasPrefix("PHONE_VERIFY_SIGNING_KEY_FILE") })
            #expect(error.problems.contains { $0.hasPrefix("PHONE_VERIFY_CODE_SECRET") })
            #expect(error.problems.contains { $0.hasPrefix("PHONE_VERIFY_GATEWAYS") })
            #expect(error.problems.contains { $0.hasPrefix("PHONE_VERIFY_ISSUER") })
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    /// HEAD through the whole stack answers GET's headers, Content-Length included, and no body.
    @Test func headAnswersGetsContentLength() throws {
        let server = try LiveServer()
        defer { server.stop() }
        var request = URLRequest(url: URL(string: server.base + "/healthz")!)
        request.httpMethod = "HEAD"
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var length: String?
        nonisolated(unsafe) var bytes = -1
        server.session.dataTask(with: request) { data, response, _ in
            length = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length")
            bytes = data?.count ?? 0
            done.signal()
        }.resume()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(length == "15")  // {"status":"ok"}
        #expect(bytes == 0)
    }

    /// Codes and vendor secrets never travel in plain http in production, except to this machine.
    @Test func productionGatewayURLsMustBeHTTPS() {
        func problems(_ url: String) -> [String] {
            let env = ["PHONE_VERIFY_MODE": "production", "PHONE_VERIFY_GATEWAYS": "webhook", "PHONE_VERIFY_WEBHOOK_URL": url,
                       "PHONE_VERIFY_WEBHOOK_SECRET": "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="]
            do { _ = try Configuration.load(environment: env) } catch let error as ConfigurationError { return error.problems } catch {}
            return []
        }
        #expect(problems("http://sms.example.com/hook").contains { $0.hasPrefix("PHONE_VERIFY_WEBHOOK_URL") })
        #expect(!problems("https://sms.example.com/hook").contains { $0.hasPrefix("PHONE_VERIFY_WEBHOOK_URL") })
        #expect(!problems("http://127.0.0.1:9000/hook").contains { $0.hasPrefix("PHONE_VERIFY_WEBHOOK_URL") })
        #expect(problems("http://127.evil.example/hook").contains { $0.hasPrefix("PHONE_VERIFY_WEBHOOK_URL") })
        #expect(problems("http://127.0.0.1.nip.io/hook").contains { $0.hasPrefix("PHONE_VERIFY_WEBHOOK_URL") })
        #expect(!problems("https://sms.example.com/hook").contains { $0.hasPrefix("PHONE_VERIFY_WEBHOOK_SECRET") })
        // A whsec_ secret that is not base64, or a short key, is refused.
        for secret in ["whsec_not base64!", "whsec_c2hvcnQ=", "short"] {
            var env = ["PHONE_VERIFY_MODE": "production", "PHONE_VERIFY_GATEWAYS": "webhook",
                       "PHONE_VERIFY_WEBHOOK_URL": "https://sms.example.com/hook", "PHONE_VERIFY_WEBHOOK_SECRET": secret]
            env["PHONE_VERIFY_ISSUER"] = "https://verify.example.com"
            let refused: [String]
            do { _ = try Configuration.load(environment: env); refused = [] } catch let error as ConfigurationError { refused = error.problems } catch { refused = [] }
            #expect(refused.contains { $0.hasPrefix("PHONE_VERIFY_WEBHOOK_SECRET") }, "\(secret)")
        }
    }

    /// docs/MFA.md: session tokens are checked for `iss` and `aud`; production refuses MFA without either.
    @Test func productionMFANeedsTheSessionTokensIssuerAndAudience() {
        func problems(_ extra: [String: String]) -> [String] {
            var env = ["PHONE_VERIFY_MODE": "production", "PHONE_VERIFY_AUTH_CORE_HS256_SECRET": "0123456789abcdef0123456789abcdef"]
            env.merge(extra) { $1 }
            do { _ = try Configuration.load(environment: env) } catch let error as ConfigurationError { return error.problems } catch {}
            return []
        }
        #expect(problems([:]).contains { $0.hasPrefix("PHONE_VERIFY_AUTH_CORE_AUDIENCE") })
        #expect(problems([:]).contains { $0.hasPrefix("PHONE_VERIFY_AUTH_CORE_ISSUER") })
        let configured = problems(["PHONE_VERIFY_AUTH_CORE_ISSUER": "https://auth.test", "PHONE_VERIFY_AUTH_CORE_AUDIENCE": "phone-verify"])
        #expect(!configured.contains { $0.hasPrefix("PHONE_VERIFY_AUTH_CORE") })
    }
}
