import App
import Foundation
import Telemetry
import VerifyCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The whole application on a real port of 127.0.0.1 with a real SQLite file, driven over HTTP.
final class LiveServer: @unchecked Sendable {
    let app: Application
    let dataDirectory: String
    let logs = CapturingLogHandler()
    private let consoleLock = NSLock()
    private var consoleLines: [String] = []
    let session: URLSession

    init(dataDirectory: String? = nil, environment: [String: String] = [:]) throws {
        let directory = dataDirectory ?? LiveServer.temporaryDirectory()
        self.dataDirectory = directory
        var env = ["PHONE_VERIFY_LISTEN": "127.0.0.1:0", "PHONE_VERIFY_DATA_DIR": directory]
        env.merge(environment) { $1 }
        let configuration = try Configuration.load(environment: env)
        let box = LineBox()
        app = Application(
            configuration: configuration, logger: Logger(handler: logs, minimumLevel: .info),
            consoleOutput: { box.append($0) })
        lineBox = box
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = 10
        session = URLSession(configuration: config)
        try app.start()
    }

    private let lineBox: LineBox

    final class LineBox: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    var console: [String] { lineBox.all }
    var base: String { "http://127.0.0.1:\(app.port)" }

    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "phone-verify-live-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func stop() { app.shutdown(graceSeconds: 5) }

    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let json: JSONValue
        var errorCode: String? { json["error"]?["code"]?.stringValue }
    }

    struct TransportError: Error {}

    /// One HTTP request, synchronously.
    func call(_ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:]) throws -> Reply {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Reply?
        session.dataTask(with: request) { data, response, _ in
            if let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (k, v) in http.allHeaderFields { headers[String(describing: k).lowercased()] = String(describing: v) }
                let bytes = [UInt8](data ?? Data())
                result = Reply(
                    status: http.statusCode, headers: headers,
                    json: bytes.isEmpty ? .null : ((try? JSONValue.parse(bytes)) ?? .string(String(decoding: bytes, as: UTF8.self))))
            }
            done.signal()
        }.resume()
        done.wait()
        guard let result else { throw TransportError() }
        return result
    }

    /// Waits for the message of a verification in the dev inbox and returns its code.
    func code(for verificationID: String, phone: String, timeout: TimeInterval = 10) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        let encoded = phone.replacingOccurrences(of: "+", with: "%2B")
        while Date() < deadline {
            let reply = try call("GET", "/dev/messages?phone_number=\(encoded)")
            for message in reply.json["messages"]?.arrayValue ?? [] where message["verification_id"]?.stringValue == verificationID {
                if let code = message["code"]?.stringValue { return code }
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw TransportError()
    }
}
