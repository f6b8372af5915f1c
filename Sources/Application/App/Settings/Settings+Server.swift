import Foundation
import PostgresStore
import SettingsTable

/// The server section of the settings table (read by `Configuration.readServer`).
extension Settings {
    public static let configFile = Setting<String>(
        "PHONE_VERIFY_CONFIG_FILE", .server, .text, default: "(none)",
        "file of KEY=VALUE lines read before the environment (the environment wins)")

    public static let mode = Setting<Configuration.Mode>(
        "PHONE_VERIFY_MODE", .server, .choice(Configuration.Mode.self), defaultsTo: .development, shown: "development",
        "development or production (the Docker image sets production); production refuses dev endpoints, generated keys and secrets, and the console sink")

    public static let devExpose = Setting<Bool>(
        "PHONE_VERIFY_DEV_EXPOSE", .server, .flag, defaultsTo: false, shown: "false",
        "true: development endpoints (/dev/…: messages and their codes) answer every client, not only loopback ones (logged as a warning at start)")

    public static let listen = Setting<(host: String, port: Int)>(
        "PHONE_VERIFY_LISTEN", .server, .hostPort, defaultsTo: (host: "127.0.0.1", port: 8080), shown: "127.0.0.1:8080",
        "host:port to listen on; port 0 picks a free port and prints it")

    public static let dataDirectory = Setting<String>(
        "PHONE_VERIFY_DATA_DIR", .server, .text, defaultsTo: "./data",
        "directory of the SQLite database and, in development, generated keys")

    public static let databaseURL = Setting<(sqlitePath: String?, postgresURL: String?)>(
        "PHONE_VERIFY_DATABASE_URL", .server, .database, default: "sqlite:<data dir>/phone-verify.db",
        "the store: sqlite:PATH or a libpq URL postgres://user:password@host:port/db?sslmode=… (several hosts, passfile, service: docs/DEPLOYMENT.md)",
        secret: true)

    public static let postgresPoolSize = Setting<Int>(
        "PHONE_VERIFY_POSTGRES_POOL_SIZE", .server, .int(1...256), defaultsTo: 16,
        "PostgreSQL connections per replica")

    public static let sqliteSynchronous = Setting<String>(
        "PHONE_VERIFY_SQLITE_SYNCHRONOUS", .server, .oneOf(["NORMAL", "FULL", "EXTRA"]) { $0.uppercased() }, defaultsTo: "NORMAL",
        "SQLite synchronous level: NORMAL (durable across process crashes) or FULL (also across power loss)")

    static let serverSection: [any SettingEntry] = [configFile, mode, devExpose, listen, dataDirectory, databaseURL, postgresPoolSize, sqliteSynchronous]
}

extension SettingType where Value == (host: String, port: Int) {
    /// "127.0.0.1:8080", "[::1]:0".
    static var hostPort: Self {
        checked("host:port", problem: "must be host:port with a port 0–65535, e.g. 127.0.0.1:8080") { text in
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port)
            else { return nil }
            var host = String(text[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            return host.isEmpty ? nil : (host, port)
        }
    }
}

extension SettingType where Value == (sqlitePath: String?, postgresURL: String?) {
    /// `sqlite:PATH` (also `sqlite://PATH`) or `postgres(ql)://…`.
    static var database: Self {
        Self("sqlite:PATH or postgres:// URL") { url in
            if url.hasPrefix("sqlite:") {
                let path = String(url.dropFirst("sqlite:".count)).replacingOccurrences(of: "//", with: "", options: .anchored)
                return path.isEmpty ? (nil, ["sqlite: needs a path"]) : ((path, nil), [])
            }
            if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
                // libpq reads the URL (docs/DEPLOYMENT.md "The database URL"); its refusal is a
                // configuration problem now rather than a failure when the store connects.
                if let problem = PostgresStore.urlProblem(url) { return (nil, [problem]) }
                return ((nil, url), [])
            }
            return (nil, ["must be sqlite:PATH or postgres://user:password@host:port/database"])
        }
    }
}
