import Foundation
import Testing
import VerifyCore

/// The console's verification log (docs/OPERATIONS.md, "Console"): newest first, keyset pages,
/// filters by status (as clients see it), channel actually used, country, number and time, and
/// never more than `VerificationLogQuery.scanLimit` rows examined per page.
@Suite struct VerificationLogTests {
    /// The id the service would give a verification created at `t0 + i` s (its creation
    /// millisecond first: the log pages by id).
    static func id(_ i: Int) -> String { VerificationLogQuery.idBound(t0.addingTimeInterval(Double(i))) + String(format: "%020x", i) }

    static func verification(_ i: Int, region: String = "US", status: VerificationStatus = .pending, phone: String = "+15555550123") -> Verification {
        var v = sample(id(i), phone: phone)
        v.createdAt = t0.addingTimeInterval(Double(i))
        v.expiresAt = v.createdAt.addingTimeInterval(300)
        v.region = region
        v.storedStatus = status
        if status == .approved { v.approvedAt = v.createdAt.addingTimeInterval(20) }
        return v
    }

    @Test(arguments: StoreKind.allCases)
    func pagesFiltersAndTheChannelUsed(kind: StoreKind) throws {
        let made = try kind.make()
        let store = try #require(made as? any VerificationLogStore)
        try made.write { tx in
            for i in 0..<7 { try tx.insert(Self.verification(i, region: i % 2 == 0 ? "US" : "NG", status: i == 3 ? .approved : .pending)) }
            // ver_0003 asked for auto: its WhatsApp message failed, the SMS fallback went out.
            var first = message("msg_wa", for: Self.id(3), at: t0.addingTimeInterval(3))
            first.channel = .whatsapp
            first.status = .failed
            first.attempts = 1
            first.gateway = "meta-whatsapp"
            first.lastError = "meta-whatsapp: 131026"
            try tx.enqueue(first, lease: nil)
            var fallback = message("msg_sms", for: Self.id(3), at: t0.addingTimeInterval(4))
            fallback.fallbackOf = "msg_wa"
            fallback.attempts = 1
            fallback.status = .delivered
            fallback.gateway = "vonage"
            try tx.enqueue(fallback, lease: nil)
            // ver_0005's fallback was never tried: its WhatsApp message is its delivery.
            var wa = message("msg_wa5", for: Self.id(5), at: t0.addingTimeInterval(5))
            wa.channel = .whatsapp
            try tx.enqueue(wa, lease: nil)
            var idle = message("msg_sms5", for: Self.id(5), at: t0.addingTimeInterval(5))
            idle.fallbackOf = "msg_wa5"
            idle.nextAttemptAt = t0.addingTimeInterval(60)
            try tx.enqueue(idle, lease: nil)
        }
        let now = t0.addingTimeInterval(303.5)  // ver_0000..0003 expired (0003 approved), 0004.. pending
        var q = VerificationLogQuery(limit: 3, now: now)
        let first = try store.verificationLog(q)
        #expect(first.entries.map(\.verification.id) == [Self.id(6), Self.id(5), Self.id(4)])
        #expect(first.entries[1].message?.id == "msg_wa5")
        q.after = first.next
        let second = try store.verificationLog(q)
        #expect(second.entries.map(\.verification.id) == [Self.id(3), Self.id(2), Self.id(1)])
        #expect(second.entries[0].message?.id == "msg_sms" && second.entries[0].message?.gateway == "vonage")
        q.after = second.next
        let last = try store.verificationLog(q)
        #expect(last.entries.map(\.verification.id) == [Self.id(0)] && last.next == nil)

        func ids(_ change: (inout VerificationLogQuery) -> Void) throws -> [String] {
            var q = VerificationLogQuery(limit: 50, now: now)
            change(&q)
            return try store.verificationLog(q).entries.map(\.verification.id)
        }
        #expect(try ids { $0.region = "NG" } == [Self.id(5), Self.id(3), Self.id(1)])
        #expect(try ids { $0.status = .approved } == [Self.id(3)])
        #expect(try ids { $0.status = .expired } == [Self.id(2), Self.id(1), Self.id(0)])
        #expect(try ids { $0.status = .pending } == [Self.id(6), Self.id(5), Self.id(4)])
        #expect(try ids { $0.channel = .whatsapp } == [Self.id(5), Self.id(3)])
        #expect(try ids { $0.channel = .sms } == [Self.id(3)])
        #expect(try ids { $0.since = t0.addingTimeInterval(2); $0.until = t0.addingTimeInterval(4) } == [Self.id(3), Self.id(2)])
        #expect(try ids { $0.phoneNumber = "+15555550999" }.isEmpty)
        #expect(try store.messages(verificationID: Self.id(3), limit: 10).map(\.id) == ["msg_wa", "msg_sms"])
    }

    @Test(arguments: StoreKind.allCases)
    func aPageExaminesABoundedNumberOfRows(kind: StoreKind) throws {
        let made = try kind.make()
        let store = try #require(made as? any VerificationLogStore)
        let total = VerificationLogQuery.scanLimit + 5
        try made.write { tx in
            for i in 0..<total { try tx.insert(Self.verification(i, region: i < 2 ? "NG" : "US")) }
        }
        // Only the two oldest match: the first page stops at the scan bound with a cursor, the next finds them.
        var q = VerificationLogQuery(limit: 10, now: t0)
        q.region = "NG"
        let first = try store.verificationLog(q)
        #expect(first.entries.isEmpty)
        #expect(first.next == VerificationLogCursor(createdAt: t0.addingTimeInterval(5), id: Self.id(5)))
        q.after = first.next
        let second = try store.verificationLog(q)
        #expect(second.entries.map(\.verification.id) == [Self.id(1), Self.id(0)] && second.next == nil)
    }

    /// `created_at` holds the creation instant rounded to the nearest millisecond, the id its
    /// millisecond rounded down: a verification on the edge of `since` is still found.
    @Test(arguments: [StoreKind.sqlite, .postgres])
    func timeBoundsFollowCreatedAtToTheMillisecond(kind: StoreKind) throws {
        let made = try kind.make()
        let store = try #require(made as? any VerificationLogStore)
        let at = t0.addingTimeInterval(10.0006)  // created_at …10001, the id's millisecond …10000
        var v = sample(VerificationLogQuery.idBound(at) + String(repeating: "0", count: 20))
        v.createdAt = at
        v.expiresAt = at.addingTimeInterval(300)
        let edge = v
        try made.write { tx in try tx.insert(edge) }
        var q = VerificationLogQuery(limit: 10, now: t0)
        q.since = t0.addingTimeInterval(10.001)
        #expect(try store.verificationLog(q).entries.map(\.verification.id) == [v.id])
        q.since = t0.addingTimeInterval(10.002)
        #expect(try store.verificationLog(q).entries.isEmpty)
        q.since = nil
        q.until = t0.addingTimeInterval(10.001)
        #expect(try store.verificationLog(q).entries.isEmpty)
        q.until = t0.addingTimeInterval(10.002)
        #expect(try store.verificationLog(q).entries.map(\.verification.id) == [v.id])
    }

    @Test func cursorsRoundTripAndRefuseForeignText() {
        let cursor = VerificationLogCursor(createdAt: t0.addingTimeInterval(1.25), id: "ver_abc")
        #expect(VerificationLogCursor(token: cursor.token) == cursor)
        // A whole id is never in a cursor (a pending one lets anyone cancel): its time and 16 bits.
        let long = VerificationLogCursor(createdAt: t0, id: "ver_0123456789abcdef0123456789abcdef")
        #expect(!long.token.contains(long.id) && VerificationLogCursor(token: long.token)?.id == "ver_0123456789abcdef")
        for bad in ["", "x.ver", "12", "12.", "-1.ver", "12.ver<script>", String(repeating: "9", count: 90) + ".v"] {
            #expect(VerificationLogCursor(token: bad) == nil, "\(bad)")
        }
    }
}
