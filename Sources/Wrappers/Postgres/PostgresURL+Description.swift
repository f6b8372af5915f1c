extension PostgresURL {
    /// The URL rebuilt from its parameters with every secret (the password, `sslpassword`) shown as
    /// `***`: safe for logs and `config check`. Hosts and ports are paired again
    /// (`h1:5432,h2:5433`); everything else becomes the query.
    public var description: String {
        var text = "postgres://"
        if let user {
            text += Self.encode(user)
            if password != nil { text += ":***" }
            text += "@"
        } else if password != nil {
            text += ":***@"
        }
        let hosts = host.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
        let ports = port.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
        let pairPorts = !ports.isEmpty && (ports.count == hosts.count || (ports.count == 1 && !hosts.isEmpty))
        text += hosts.enumerated().map { index, host in
            let shown = host.contains(":") && !host.hasPrefix("/") ? "[\(host)]" : Self.encode(host)
            guard pairPorts else { return shown }
            let port = ports.count == 1 ? ports[0] : ports[index]
            return port.isEmpty ? shown : "\(shown):\(port)"
        }.joined(separator: ",")
        if let database { text += "/" + Self.encode(database) }
        var consumed: Set<String> = ["user", "password", "host", "dbname"]
        if pairPorts { consumed.insert("port") }
        let query = parameters.filter { !consumed.contains($0.keyword) }.map { parameter in
            let value = secretKeywords.contains(parameter.keyword) ? "***" : Self.encode(parameter.value)
            return "\(Self.encode(parameter.keyword))=\(value)"
        }
        if !query.isEmpty { text += "?" + query.joined(separator: "&") }
        return text
    }

    /// `message` with every secret the raw `url` carries (the user info's password, a `password` or
    /// `sslpassword` query value) replaced by `***`: libpq quotes the offending token in some
    /// errors (a bad percent escape), and that token may be the password.
    static func redact(_ message: String, secretsOf url: String) -> String {
        var secrets: [Substring] = []
        guard let schemeEnd = url.firstRange(of: "://")?.upperBound else { return message }
        let rest = url[schemeEnd...]
        // libpq ends the user info at the first '@' before any '/'.
        if let stop = rest.firstIndex(where: { $0 == "@" || $0 == "/" }), rest[stop] == "@",
           let colon = rest[..<stop].firstIndex(of: ":") {
            secrets.append(rest[rest.index(after: colon)..<stop])
        }
        if let mark = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: mark)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, ["password", "sslpassword"].contains(parts[0].lowercased()) { secrets.append(parts[1]) }
            }
        }
        var redacted = message
        for secret in secrets.sorted(by: { $0.count > $1.count }) where !secret.isEmpty {
            redacted = redacted.replacingAll(String(secret), with: "***")
        }
        return redacted
    }

    /// Percent-encodes everything but unreserved characters (RFC 3986).
    static func encode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
            }
        }
        return result
    }
}

extension String {
    /// Every occurrence of `target` replaced (the module has no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
