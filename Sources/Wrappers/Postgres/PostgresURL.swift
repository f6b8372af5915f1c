/// A parsed `postgres://` (or `postgresql://`) connection URL.
///
/// `postgres://user:password@host:port/database?sslmode=require&application_name=api`
///
/// User, password, host, database and query values are percent-decoded
/// (`%40` → `@`); an IPv6 host goes in brackets (`[::1]`). The parts become
/// separate libpq keyword/value pairs for `PQconnectdbParams`, so no value is
/// ever re-parsed as a connection string. Query options are limited to
/// ``supportedOptions``; anything else is rejected so a typo fails loudly.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// The role to log in as; libpq defaults to the OS user when `nil`.
    public var user: String?
    /// The password, decoded.
    public var password: String?
    /// A host name, an IP address, or a Unix-socket directory (`%2Ftmp`); libpq's default when `nil`.
    public var host: String?
    /// The TCP port; 5432 when `nil`.
    public var port: Int?
    /// The database name; libpq uses the user name when `nil`.
    public var database: String?
    /// Query options in URL order (`sslmode`, `application_name`, …), decoded.
    public var options: [(key: String, value: String)]

    /// The query options passed through to libpq.
    public static let supportedOptions: Set<String> = [
        "sslmode", "sslrootcert", "sslcert", "sslkey", "sslcrl", "connect_timeout", "application_name", "options",
        "target_session_attrs", "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
        "tcp_user_timeout",
    ]

    /// Parses `url`; throws a ``PostgresError`` of kind `.usage` when it is malformed.
    public init(_ url: String) throws {
        var rest = Substring(url)
        guard let scheme = rest.firstRange(of: "://"),
              ["postgres", "postgresql"].contains(rest[..<scheme.lowerBound].lowercased())
        else { throw Self.invalid("it must start with postgres:// or postgresql://") }
        rest = rest[scheme.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }

        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        // rest is now the authority: [userinfo@]hostport. An unescaped '@' in a
        // password is tolerated by splitting at the last one.
        var hostPort = rest
        user = nil
        password = nil
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            hostPort = rest[rest.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<colon], "user")
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], "password")
            } else {
                user = try Self.decode(userInfo, "user")
            }
            if user == "" { user = nil }
        }
        (host, port) = try Self.parseHostPort(hostPort)
        database = path.isEmpty ? nil : try Self.decode(path, "database")
        options = try Self.parseQuery(query)
    }

    /// The value of a query option, if present (the last one wins).
    public func option(_ key: String) -> String? {
        options.last { $0.key == key }?.value
    }

    /// The keyword/value pairs for `PQconnectdbParams`. `client_encoding` is
    /// always UTF8, since results are decoded as UTF-8.
    public var connectionParameters: [(keyword: String, value: String)] {
        var pairs: [(keyword: String, value: String)] = []
        if let host { pairs.append(("host", host)) }
        if let port { pairs.append(("port", String(port))) }
        if let user { pairs.append(("user", user)) }
        if let password { pairs.append(("password", password)) }
        if let database { pairs.append(("dbname", database)) }
        for (key, value) in options { pairs.append((key, value)) }
        pairs.append(("client_encoding", "UTF8"))
        return pairs
    }

    /// The URL with the password replaced by `***`, safe for logs.
    public var description: String {
        var text = "postgres://"
        if let user {
            text += Self.encode(user)
            if password != nil { text += ":***" }
            text += "@"
        }
        if let host { text += host.contains(":") ? "[\(host)]" : Self.encode(host) }
        if let port { text += ":\(port)" }
        if let database { text += "/" + Self.encode(database) }
        if !options.isEmpty {
            text += "?" + options.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&")
        }
        return text
    }

    /// URLs are equal when all parts and options (in order) are.
    public static func == (lhs: PostgresURL, rhs: PostgresURL) -> Bool {
        lhs.user == rhs.user && lhs.password == rhs.password && lhs.host == rhs.host && lhs.port == rhs.port
            && lhs.database == rhs.database && lhs.options.map(\.key) == rhs.options.map(\.key)
            && lhs.options.map(\.value) == rhs.options.map(\.value)
    }

    private static func parseHostPort(_ text: Substring) throws -> (String?, Int?) {
        var hostPart = text
        var portPart: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw invalid("unclosed '[' in the host") }
            hostPart = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("unexpected text after ']'") }
                portPart = after.dropFirst()
            }
        } else if let colon = text.firstIndex(of: ":") {
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        if hostPart.contains(",") { throw invalid("multiple hosts are not supported") }
        let host = hostPart.isEmpty ? nil : try decode(hostPart, "host")
        guard let portPart, !portPart.isEmpty else { return (host, nil) }
        guard portPart.allSatisfy(\.isASCII), let port = Int(portPart), (1...65535).contains(port) else {
            throw invalid("the port must be a number from 1 to 65535, got '\(portPart)'")
        }
        return (host, port)
    }

    private static func parseQuery(_ query: Substring) throws -> [(key: String, value: String)] {
        var options: [(key: String, value: String)] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "=") else { throw invalid("option '\(pair)' has no value") }
            let key = try decode(pair[..<equals], "option name")
            let value = try decode(pair[pair.index(after: equals)...], "option \(key)")
            guard supportedOptions.contains(key) else {
                throw invalid("unsupported option '\(key)' (supported: \(supportedOptions.sorted().joined(separator: ", ")))")
            }
            options.append((key, value))
        }
        return options
    }

    /// Percent-decodes one part; rejects bad escapes, invalid UTF-8 and NUL.
    static func decode(_ text: Substring, _ part: String) throws -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw invalid("bad percent escape in the \(part)")
            }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(0), let decoded = String(validating: bytes, as: UTF8.self) else {
            throw invalid("the \(part) is not valid UTF-8 text without NUL")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Percent-encodes everything but unreserved characters (RFC 3986).
    static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                result += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
            }
        }
        return result
    }

    private static func invalid(_ reason: String) -> PostgresError {
        PostgresError(kind: .usage, message: "invalid PostgreSQL URL: \(reason)")
    }
}
