import Foundation
import HTTPServer
import HTTPMessages
import SQLite
import SettingsTable

/// `phone-verify ceiling static|sqlite`: the machine's ceilings for `scripts/bench`, served by the
/// same HTTP server: a static JSON response, and one SQLite WAL transaction per request (insert +
/// update, synchronous=NORMAL). Benchmark results are reported as ratios to these.
enum CeilingCommand {
    struct StaticResponder: HTTPResponder {
        let body = Array(#"{"status":"ok","id":"ver_0123456789abcdef0123456789abcdef"}"#.utf8)
        func respond(to request: HTTPRequest) -> HTTPResponse {
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=utf-8"], body: body)
        }
    }

    /// One transaction per request on one shared connection behind a lock: no group commit.
    final class SQLiteResponder: HTTPResponder, @unchecked Sendable {
        // @unchecked: `connection` and `counter` are only touched with `lock` held.
        let connection: Connection
        let lock = NSLock()
        var counter: Int64 = 0

        init(path: String) throws {
            connection = try Connection(path: path)
            try connection.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
            try connection.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT, n INTEGER NOT NULL DEFAULT 0)")
        }

        func respond(to request: HTTPRequest) -> HTTPResponse {
            lock.lock()
            defer { lock.unlock() }
            counter += 1
            do {
                try connection.execute("BEGIN IMMEDIATE")
                try connection.run("INSERT INTO t (v) VALUES (?)", [.text("row \(counter)")])
                try connection.run("UPDATE t SET n = n + 1 WHERE id = ?", [.integer(connection.lastInsertRowID)])
                try connection.execute("COMMIT")
                return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(#"{"ok":true}"#.utf8))
            } catch {
                try? connection.execute("ROLLBACK")
                return HTTPResponse(status: 500)
            }
        }
    }

    static func run(_ args: [String], environment: [String: String]) -> Int32 {
        let threads = Int(environment[Settings.httpThreads.name] ?? "") ?? 2
        let responder: any HTTPResponder
        switch args.first {
        case "static": responder = StaticResponder()
        case "sqlite":
            let path = (environment[Settings.dataDirectory.name] ?? NSTemporaryDirectory()) + "/ceiling.db"
            do { responder = try SQLiteResponder(path: path) } catch {
                FileHandle.standardError.write(Data("phone-verify: \(error)\n".utf8))
                return 1
            }
        default:
            FileHandle.standardError.write(Data("usage: phone-verify ceiling static|sqlite\n".utf8))
            return 64
        }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadPoolSize: threads), responder: responder)
        do { try server.start() } catch {
            FileHandle.standardError.write(Data("phone-verify: \(error)\n".utf8))
            return 1
        }
        FileHandle.standardOutput.write(Data("phone-verify listening on http://127.0.0.1:\(server.port) (ceiling \(args[0]))\n".utf8))
        _ = SignalWaiter(signals: [SIGTERM, SIGINT]).wait()
        server.shutdown(graceSeconds: 1)
        return 0
    }
}
