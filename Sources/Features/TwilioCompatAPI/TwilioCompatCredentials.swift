import API
import Foundation
import Encoding

/// HTTP Basic credentials of the Twilio-compatible API (`PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS`):
/// account SID / auth token pairs (`ACxxx:token`) and API key SID / secret pairs bound to an
/// account (`SKxxx:secret@ACxxx`), as Twilio accepts them.
public struct TwilioCompatCredentials: Sendable {
    public struct Entry: Sendable, Equatable {
        /// The Basic user name: an account SID (AC…) or an API key SID (SK…).
        public let username: String
        let secret: [UInt8]
        /// The account the requests act for.
        public let accountSID: String
    }

    public let entries: [Entry]

    /// Parses `ACxxx:token,SKxxx:secret@ACxxx`; throws every problem found, one sentence each.
    public init(parsing text: String) throws {
        var entries: [Entry] = []
        var problems: [String] = []
        // A problem names an entry by its position and a SID only once it is known to be one: in a
        // mistyped entry (written the wrong way round, a secret holding "@") anything else may be
        // the secret, and these sentences reach logs and `config check`.
        for (index, raw) in text.split(separator: ",").enumerated() {
            let item = raw.trimmingCharacters(in: .whitespaces)
            guard !item.isEmpty else { continue }
            guard let colon = item.firstIndex(of: ":") else {
                problems.append("entry \(index + 1) must be SID:SECRET or SKxxx:SECRET@ACxxx")
                continue
            }
            let username = String(item[..<colon])
            var secret = String(item[item.index(after: colon)...])
            var account: String?
            if let at = secret.lastIndex(of: "@") {
                account = String(secret[secret.index(after: at)...])
                secret = String(secret[..<at])
            }
            if Self.isSID(username, prefix: "AC") {
                if let account, account != username {
                    problems.append("account \(username) cannot be bound to another account")
                    continue
                }
                account = username
            } else if Self.isSID(username, prefix: "SK") {
                guard let bound = account, Self.isSID(bound, prefix: "AC") else {
                    problems.append("API key \(username) must be bound to an account: \(username):SECRET@ACxxx (AC + 32 hex digits)")
                    continue
                }
                account = bound
            } else {
                problems.append("entry \(index + 1) does not start with an account SID (AC + 32 hex digits) or an API key SID (SK + 32 hex digits)")
                continue
            }
            guard !secret.isEmpty else {
                problems.append("\(username) has an empty secret")
                continue
            }
            guard !entries.contains(where: { $0.username == username }) else {
                problems.append("\(username) is listed twice")
                continue
            }
            entries.append(Entry(username: username, secret: Array(secret.utf8), accountSID: account ?? username))
        }
        if entries.isEmpty && problems.isEmpty { problems.append("lists no credentials") }
        if !problems.isEmpty { throw ConfigurationProblems(problems: problems) }
        self.entries = entries
    }

    /// Problems of a credentials setting.
    public struct ConfigurationProblems: Error, CustomStringConvertible {
        public let problems: [String]
        public var description: String { problems.joined(separator: "; ") }
    }

    /// Entries whose secret is shorter than `length` characters (weak), by user name.
    public func weakEntries(shorterThan length: Int) -> [String] {
        entries.filter { $0.secret.count < length }.map(\.username)
    }

    /// The account SID an `Authorization: Basic …` header authenticates, or nil. Every entry is
    /// compared, each in constant time, so timing does not tell which user name exists.
    public func authenticate(_ authorization: String?) -> String? {
        guard let authorization, authorization.count > 6, authorization.prefix(6).lowercased() == "basic ",
            let decoded = Base64.decode(authorization.dropFirst(6).trimmingCharacters(in: .whitespaces)),
            let colon = decoded.firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        let user = Array(decoded[decoded.startIndex..<colon])
        let secret = Array(decoded[decoded.index(after: colon)...])
        var account: String?
        for entry in entries {
            let userMatches = Self.constantTimeEquals(Array(entry.username.utf8), user)
            let secretMatches = Self.constantTimeEquals(entry.secret, secret)
            if userMatches && secretMatches { account = entry.accountSID }
        }
        return account
    }

    /// The user name an `Authorization: Basic …` header claims when it has a SID's shape (`AC…`,
    /// `SK…`), else `?`. The throttle of wrong credentials counts per client address and claimed
    /// user (docs/TWILIO_COMPAT.md): tenants that share an egress address (a PaaS's NAT) are not
    /// slowed by each other's or a stranger's failures, only the account being guessed is.
    public static func claimedUser(_ authorization: String?) -> String {
        guard let authorization, authorization.count > 6, authorization.prefix(6).lowercased() == "basic ",
            let decoded = Base64.decode(authorization.dropFirst(6).trimmingCharacters(in: .whitespaces)),
            let colon = decoded.firstIndex(of: UInt8(ascii: ":"))
        else { return "?" }
        let user = String(decoding: decoded[decoded.startIndex..<colon], as: UTF8.self)
        return isSID(user, prefix: "AC") || isSID(user, prefix: "SK") ? user : "?"
    }

    /// Whether two byte strings are equal, in time that depends only on their lengths.
    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        let n = max(a.count, b.count)
        for i in 0..<n {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            difference |= x ^ y
        }
        return difference == 0 && a.count == b.count
    }

    /// Whether `text` is `prefix` + 32 hex digits.
    public static func isSID(_ text: String, prefix: String) -> Bool {
        text.utf8.count == 34 && text.hasPrefix(prefix)
            && text.utf8.dropFirst(2).allSatisfy(ASCII.isHexDigit)
    }
}
