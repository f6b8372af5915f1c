import Foundation
import Encoding

/// Where a page of the verification log ends: the last verification read (newest first), so
/// the next page starts strictly older (keyset pagination: no OFFSET, stable under inserts).
public struct VerificationLogCursor: Sendable, Equatable {
    public let createdAt: Date
    public let id: String

    public init(createdAt: Date, id: String) {
        self.createdAt = createdAt
        self.id = id
    }

    /// `MILLIS.ID-PREFIX`, opaque to clients. The id is cut to its time and 16 random bits
    /// (`ver_` + 12 + 4 hex digits): a pending verification's whole id lets anyone cancel it, and
    /// a read-only key never sees one (docs/API.md). Paging by the prefix (`id < prefix`) skips
    /// only a row created in the same millisecond with the same 16 bits: 1 in 65,536.
    public var token: String { "\(Int64((createdAt.timeIntervalSince1970 * 1000).rounded(.down))).\(id.prefix(20))" }

    public init?(token: String) {
        guard token.utf8.count <= 80, let dot = token.firstIndex(of: "."), let millis = Int64(token[..<dot]), millis >= 0 else { return nil }
        let id = String(token[token.index(after: dot)...])
        guard !id.isEmpty, id.utf8.allSatisfy({ $0 == 0x5F || $0 == 0x2D || ASCII.isAlphanumeric($0) }) else { return nil }
        self.init(createdAt: Date(timeIntervalSince1970: Double(millis) / 1000), id: id)
    }
}

/// What the console's verification log asks for: filters, a page size and where to continue.
public struct VerificationLogQuery: Sendable, Equatable {
    /// Rows a store examines per page at most (filters that match little give short pages with a cursor).
    public static let scanLimit = 2_000
    /// Status as clients see it at `now` (`expired` is a pending one past its expiry).
    public var status: VerificationStatus?
    /// A channel one of its messages actually went by (not the one requested).
    public var channel: Channel?
    /// ISO region of the number.
    public var region: String?
    /// One number (E.164): read through its index, so no scan bound applies.
    public var phoneNumber: String?
    /// Created at or after `since` and before `until`.
    public var since: Date?
    public var until: Date?
    public var after: VerificationLogCursor?
    public var limit: Int
    public var now: Date

    public init(limit: Int, now: Date) {
        self.limit = limit
        self.now = now
    }

    /// The least id a verification created in `date`'s millisecond or later can have: ids begin
    /// with their creation millisecond (``RandomSource/timeOrderedIdentifier(prefix:at:)``), so
    /// the stores page and bound the log by the primary key, with no index on `created_at` (one
    /// index entry less per start). `created_at` is the same instant rounded to the nearest
    /// millisecond, the id's rounded down: a store widens a lower bound by 1 ms and filters on
    /// `created_at` too.
    public static func idBound(_ date: Date) -> String {
        let millis = UInt64(min(max(0, (date.timeIntervalSince1970 * 1000).rounded(.down)), Double(1 << 48 - 1)))
        return "ver_" + Hex.encode((0..<6).map { UInt8(truncatingIfNeeded: millis >> (40 - 8 * UInt64($0))) })
    }
}

/// One row of the log: the verification and the latest message that went (or is going) out.
public struct VerificationLogEntry: Sendable, Equatable {
    public let verification: Verification
    public let message: OutboxMessage?

    public init(verification: Verification, message: OutboxMessage?) {
        self.verification = verification
        self.message = message
    }
}

/// A page of the log. `next` is set when older verifications may match: either the page is
/// full, or the store stopped at ``VerificationLogQuery/scanLimit`` rows it read.
public struct VerificationLogPage: Sendable, Equatable {
    public let entries: [VerificationLogEntry]
    public let next: VerificationLogCursor?

    public init(entries: [VerificationLogEntry], next: VerificationLogCursor?) {
        self.entries = entries
        self.next = next
    }
}

/// The console's reads of verifications across numbers, bounded so a page never reads the
/// whole table: newest first by id (the primary key; an id begins with its creation millisecond), at most ``VerificationLogQuery/scanLimit`` rows
/// examined per page whatever the filters, and a cursor to continue.
public protocol VerificationLogStore: Sendable {
    func verificationLog(_ query: VerificationLogQuery) throws -> VerificationLogPage
    /// Every message of one verification (first tries, resends, fallbacks), oldest first.
    func messages(verificationID: String, limit: Int) throws -> [OutboxMessage]
}

extension VerificationLogQuery {
    /// Whether `v` (with its messages' channels) passes the filters other than time and cursor:
    /// the in-memory store's rule, which the SQL stores say in SQL.
    public func matches(_ v: Verification, channels: Set<Channel>) -> Bool {
        if let status, v.status(at: now) != status { return false }
        if let region, v.region != region { return false }
        if let phoneNumber, v.phoneNumber != phoneNumber { return false }
        if let channel, !channels.contains(channel) { return false }
        return true
    }
}
