import CPostgres
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A `postgres://` (or `postgresql://`) connection URL, parsed by libpq itself.
///
/// `postgres://user:password@h1:5432,h2:5432/db?sslmode=verify-full&target_session_attrs=read-write`
///
/// libpq's `PQconninfoParse` reads the URL, so everything libpq accepts works: several hosts for
/// failover, `passfile`, `service`, `hostaddr`, `target_session_attrs`, every documented query
/// parameter; and what it refuses (an unknown parameter, a bad percent escape, `%00`) fails here
/// with libpq's message. The result is libpq's own keyword/value pairs, handed to
/// `PQconnectdbParams` with `expand_dbname = 0`, so no value is ever re-parsed as a connection
/// string. On top of libpq this type checks only what libpq leaves to connection time or does not
/// check at all: the `postgres://` prefix (a `key=value` string is not a URL), every port is a
/// number from 1 to 65535, values are UTF-8, and `client_encoding` is UTF8 (results are decoded
/// as UTF-8; it is always sent). ``description`` hides every secret parameter (the password,
/// `sslpassword`), and no error message repeats one.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// The keyword/value pairs the URL sets, in libpq's keyword order (`host`, `port`, `user`, …).
    public private(set) var parameters: [Parameter]
    /// Keywords libpq marks as secret (`dispchar` "*"): never shown.
    let secretKeywords: Set<String>

    /// One libpq connection parameter.
    public struct Parameter: Sendable, Equatable {
        public var keyword: String
        public var value: String
    }

    /// The schemes libpq reads as URLs (its prefixes are case-sensitive).
    public static let schemes = ["postgresql://", "postgres://"]

    /// Parses `url` through libpq; throws a ``PostgresError`` of kind `.usage` when it is malformed,
    /// with a message that never contains the password.
    public init(_ url: String) throws {
        guard Self.schemes.contains(where: url.hasPrefix) else {
            throw Self.invalid("it must start with postgres:// or postgresql://")
        }
        guard !url.utf8.contains(0) else { throw Self.invalid("it contains a NUL character") }
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &errorMessage) else {
            let message = errorMessage.map { String(cString: $0) } ?? "libpq could not parse it"
            if let errorMessage { PQfreemem(errorMessage) }
            throw Self.invalid(Self.redact(message.trimmingSuffix("\n"), secretsOf: url))
        }
        defer { PQconninfoFree(options) }
        var parameters: [Parameter] = []
        var secrets: Set<String> = []
        var option = options
        while let keyword = option.pointee.keyword {
            let name = String(cString: keyword)
            if let display = option.pointee.dispchar, String(cString: display).contains("*") { secrets.insert(name) }
            if let value = option.pointee.val {
                guard let text = String(validatingCString: value) else {
                    throw Self.invalid("the \(name) is not valid UTF-8")
                }
                parameters.append(Parameter(keyword: name, value: text))
            }
            option += 1
        }
        self.parameters = parameters
        secretKeywords = secrets
        try validate()
    }

    /// The checks libpq makes only when connecting, or not at all.
    private func validate() throws {
        if let ports = option("port") {
            for port in ports.split(separator: ",", omittingEmptySubsequences: false) where !port.isEmpty {
                guard port.allSatisfy(\.isASCII), let number = Int(port), (1...65535).contains(number) else {
                    throw Self.invalid("the port must be a number from 1 to 65535, got '\(port)'")
                }
            }
        }
        if let encoding = option("client_encoding"), encoding.uppercased() != "UTF8", encoding.uppercased() != "UTF-8" {
            throw Self.invalid("client_encoding must be UTF8 (results are read as UTF-8), got '\(encoding)'")
        }
    }

    /// The value of a parameter (`sslmode`, `host`, `passfile`, …), if the URL sets it.
    public func option(_ keyword: String) -> String? {
        parameters.last { $0.keyword == keyword }?.value
    }

    /// Sets a parameter, replacing the URL's value if it has one (e.g. defaults a caller adds).
    public mutating func setOption(_ keyword: String, _ value: String) {
        if let index = parameters.lastIndex(where: { $0.keyword == keyword }) {
            parameters[index].value = value
        } else {
            parameters.append(Parameter(keyword: keyword, value: value))
        }
    }

    /// The role to log in as; libpq defaults to the OS user when `nil`.
    public var user: String? { option("user") }
    /// The password, decoded (from the URL's user info or `?password=`).
    public var password: String? { option("password") }
    /// The host list as libpq holds it: comma-separated names, addresses or socket directories.
    public var host: String? { option("host") }
    /// The port list as libpq holds it: one port, or one per host.
    public var port: String? { option("port") }
    /// The database name; libpq uses the user name when `nil`.
    public var database: String? { option("dbname") }

    /// The keyword/value pairs for `PQconnectdbParams`. `client_encoding` is always UTF8, since
    /// results are decoded as UTF-8.
    public var connectionParameters: [(keyword: String, value: String)] {
        parameters.filter { $0.keyword != "client_encoding" }.map { ($0.keyword, $0.value) }
            + [("client_encoding", "UTF8")]
    }

    /// URLs are equal when they set the same parameters to the same values, in the same order.
    public static func == (lhs: PostgresURL, rhs: PostgresURL) -> Bool {
        lhs.parameters == rhs.parameters
    }

    static func invalid(_ reason: String) -> PostgresError {
        PostgresError(kind: .usage, message: "invalid PostgreSQL URL: \(reason)")
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
