import Foundation
import PostgresStore
import SQLiteStore
import Testing
import VerifyCore
import VerifyTesting

/// Stores under contract: every backend must pass the same tests unchanged.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, sqlite, postgres
    var testDescription: String { rawValue }

    func make() throws -> any VerificationStore & OutboxStore {
        switch self {
        case .memory: return InMemoryStore()
        case .sqlite:
            let dir = NSTemporaryDirectory() + "pv-store-" + UUID().uuidString
            return try SQLiteStore(path: dir + "/test.db")
        case .postgres:
            // A fresh schema per store, so tests run in parallel on one database. The test fails
            // (never skips) when the server is down: the suite must run against PostgreSQL in CI.
            let url = ProcessInfo.processInfo.environment["PHONE_VERIFY_TEST_POSTGRES_URL"]
                ?? "postgres://postgres@127.0.0.1:55432/phone_verify_test"
            let schema = "pv_contract_\(Int(Date().timeIntervalSince1970))_\(UInt32.random(in: 0...UInt32.max))"
            do {
                return try PostgresStore(url: url, poolSize: 4, schema: schema)
            } catch let error as PostgresStoreError {
                guard case .unreachable = error else { throw error }
                throw PostgresUnavailable(reason: "\(error)")
            }
        }
    }

    struct PostgresUnavailable: Error, CustomStringConvertible {
        let reason: String
        var description: String {
            "PostgreSQL test server unreachable (\(reason)); start it with `scripts/postgres start` "
                + "or set PHONE_VERIFY_TEST_POSTGRES_URL"
        }
    }
}

struct Boom: Error {}

let t0 = Date(timeIntervalSince1970: 1_800_000_000)

func sample(_ id: String = "ver_1", phone: String = "+15555550123", expires: TimeInterval = 300) -> Verification {
    Verification(
        id: id, phoneNumber: phone, display: "+1 555-555-0123", region: "US", countryCode: 1, locale: "en",
        purpose: .signIn, codeHash: [1, 2, 3, 0, 255], codeLength: 6, maxAttempts: 5, maxSends: 5, createdAt: t0,
        expiresAt: t0.addingTimeInterval(expires), lastSentAt: t0, resendAvailableAt: t0.addingTimeInterval(30))
}

func message(_ id: String, for verification: String = "ver_1", at: Date = t0, expires: TimeInterval = 300) -> OutboxMessage {
    OutboxMessage(
        id: id, verificationID: verification, to: "+15555550123", purpose: .signIn, sealedPayload: [9, 9, 9],
        createdAt: at, updatedAt: at, nextAttemptAt: at, expiresAt: at.addingTimeInterval(expires))
}

@Suite struct StoreContractTests {
    @Test(arguments: StoreKind.allCases)
    func verificationsRoundTripAndUpdate(kind: StoreKind) throws {
        let store = try kind.make()
        var v = sample()
        v.subject = "user-1"
        v.sessionID = "sess-1"
        let stored = v
        try store.write { tx in try tx.insert(stored) }
        #expect(try store.read { try $0.verification(id: "ver_1") } == v)
        #expect(try store.read { try $0.verification(id: "ver_2") } == nil)
        v.attempts = 3
        v.storedStatus = .approved
        v.approvedAt = t0.addingTimeInterval(10)
        v.codeHash = [7]
        let updated = v
        try store.write { tx in try tx.update(updated) }
        #expect(try store.read { try $0.verification(id: "ver_1") } == v)
    }

    @Test(arguments: StoreKind.allCases)
    func aThrowingWriteChangesNothing(kind: StoreKind) throws {
        let store = try kind.make()
        #expect(throws: Boom.self) {
            try store.write { tx in
                try tx.insert(sample())
                try tx.enqueue(message("msg_1"))
                throw Boom()
            }
        }
        #expect(try store.read { try $0.verification(id: "ver_1") } == nil)
        #expect(try store.queueDepth().count == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func duplicateIdsAreRefused(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { try $0.insert(sample()) }
        #expect(throws: (any Error).self) { try store.write { try $0.insert(sample()) } }
    }

    @Test(arguments: StoreKind.allCases)
    func latestMessageAndSupersede(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { tx in
            try tx.insert(sample())
            try tx.enqueue(message("msg_1"))
            try tx.enqueue(message("msg_2", at: t0.addingTimeInterval(30)))
        }
        #expect(try store.read { try $0.latestMessage(verificationID: "ver_1") }?.id == "msg_2")
        try store.write { try $0.supersedeQueuedMessages(verificationID: "ver_1", reason: "superseded", now: t0) }
        let latest = try #require(try store.read { try $0.latestMessage(verificationID: "ver_1") })
        #expect(latest.status == .failed)
        #expect(latest.lastError == "superseded")
        #expect(latest.sealedPayload.isEmpty)
        #expect(try store.queueDepth().count == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func idempotencyRecordsExpire(kind: StoreKind) throws {
        let store = try kind.make()
        let record = IdempotencyRecord(key: "ip|k", fingerprint: "f", verificationID: "ver_1", snapshot: sample(), createdAt: t0)
        try store.write { try $0.saveIdempotencyRecord(record) }
        #expect(try store.read { try $0.idempotencyRecord(key: "ip|k", notBefore: t0) } == record)
        #expect(try store.read { try $0.idempotencyRecord(key: "ip|k", notBefore: t0.addingTimeInterval(1)) } == nil)
        #expect(try store.read { try $0.idempotencyRecord(key: "ip|other", notBefore: t0) } == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func claimsHoldLeasesAndNeverHandAMessageToTwoWorkers(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { tx in
            try tx.insert(sample())
            for i in 0..<10 { try tx.enqueue(message("msg_\(i)", at: t0)) }
            try tx.enqueue(message("msg_later", at: t0.addingTimeInterval(100)))
        }
        let lease = t0.addingTimeInterval(30)
        let a = try store.claimDue(limit: 6, now: t0, leaseUntil: lease, owner: "A")
        let b = try store.claimDue(limit: 6, now: t0, leaseUntil: lease, owner: "B")
        #expect(a.count == 6 && b.count == 4)
        #expect(Set(a.map(\.id)).isDisjoint(with: Set(b.map(\.id))))
        #expect(try store.claimDue(limit: 6, now: t0, leaseUntil: lease, owner: "C").isEmpty)
        // A lapsed lease (crashed worker) makes the message claimable again.
        let c = try store.claimDue(limit: 20, now: t0.addingTimeInterval(31), leaseUntil: t0.addingTimeInterval(60), owner: "C")
        #expect(c.count == 10)
        // Only the lease owner may complete.
        try store.complete([OutboxOutcome(messageID: c[0].id, status: .sent, gateway: "x", providerMessageID: nil, lastError: nil, nextAttemptAt: nil, attempts: 1, at: t0)], owner: "A")
        #expect(try store.queueDepth().count == 11)
    }

    /// A message superseded while a worker held it is never queued again by the worker's report
    /// (a retry outcome keeps it failed); but if the worker had already sent it, the row says so,
    /// with the provider id its receipts will name.
    @Test(arguments: StoreKind.allCases)
    func completionNeverRevivesASupersededMessage(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { tx in
            try tx.insert(sample())
            try tx.enqueue(message("msg_old", at: t0), lease: OutboxLease(owner: "A", until: t0.addingTimeInterval(15)))
            try tx.insert(sample("ver_2"))
            try tx.enqueue(message("msg_sent", for: "ver_2", at: t0), lease: OutboxLease(owner: "A", until: t0.addingTimeInterval(15)))
        }
        try store.write { try $0.supersedeQueuedMessages(verificationID: "ver_1", reason: "superseded by a resend", now: t0) }
        try store.write { try $0.supersedeQueuedMessages(verificationID: "ver_2", reason: "verification approved", now: t0) }
        try store.complete([
            OutboxOutcome(messageID: "msg_old", status: .queued, gateway: "x", providerMessageID: nil, lastError: "503",
                          nextAttemptAt: t0.addingTimeInterval(5), attempts: 1, at: t0),
            OutboxOutcome(messageID: "msg_sent", status: .sent, gateway: "x", providerMessageID: "p1", lastError: nil, nextAttemptAt: nil, attempts: 1, at: t0),
        ], owner: "A")
        let old = try #require(try store.read { try $0.latestMessage(verificationID: "ver_1") })
        #expect(old.status == .failed)
        #expect(old.lastError == "superseded by a resend")
        #expect(try store.claimDue(limit: 5, now: t0.addingTimeInterval(60), leaseUntil: t0.addingTimeInterval(90), owner: "B").isEmpty)
        let sent = try #require(try store.read { try $0.latestMessage(verificationID: "ver_2") })
        #expect(sent.status == .sent && sent.providerMessageID == "p1" && sent.lastError == nil)
        #expect(try store.recordReceipt(gateway: "x", providerMessageID: "p1", status: .delivered, error: nil, at: t0.addingTimeInterval(2)))
    }

    /// A message queued under a lease (handed to the local worker in memory) is claimed as it
    /// is inserted: nobody else gets it while the lease holds, its owner can complete it, and
    /// once the lease lapses (the process died) any worker claims it.
    @Test(arguments: StoreKind.allCases)
    func messagesQueuedUnderALeaseBelongToThatWorker(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { tx in
            try tx.insert(sample())
            try tx.enqueue(message("msg_held", at: t0), lease: OutboxLease(owner: "A", until: t0.addingTimeInterval(15)))
            try tx.enqueue(message("msg_lost", at: t0), lease: OutboxLease(owner: "A", until: t0.addingTimeInterval(15)))
        }
        #expect(try store.queueDepth().count == 2)
        #expect(try store.claimDue(limit: 10, now: t0.addingTimeInterval(1), leaseUntil: t0.addingTimeInterval(30), owner: "B").isEmpty)
        try store.complete([OutboxOutcome(messageID: "msg_held", status: .sent, gateway: "x", providerMessageID: nil, lastError: nil, nextAttemptAt: nil, attempts: 1, at: t0)], owner: "A")
        #expect(try store.queueDepth().count == 1)
        let rescued = try store.claimDue(limit: 10, now: t0.addingTimeInterval(16), leaseUntil: t0.addingTimeInterval(40), owner: "B")
        #expect(rescued.map(\.id) == ["msg_lost"])
    }

    @Test(arguments: StoreKind.allCases)
    func completionRecordsOutcomesAndErasesPayloads(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { tx in
            try tx.insert(sample())
            try tx.enqueue(message("msg_sent"))
            try tx.enqueue(message("msg_retry", at: t0.addingTimeInterval(1)))
        }
        let claimed = try store.claimDue(limit: 10, now: t0.addingTimeInterval(1), leaseUntil: t0.addingTimeInterval(30), owner: "W")
        #expect(claimed.count == 2)
        #expect(claimed.first?.sealedPayload == [9, 9, 9])
        try store.complete([
            OutboxOutcome(messageID: "msg_sent", status: .sent, gateway: "console", providerMessageID: "p1", lastError: nil, nextAttemptAt: nil, attempts: 1, at: t0.addingTimeInterval(2)),
            OutboxOutcome(messageID: "msg_retry", status: .queued, gateway: "console", providerMessageID: nil, lastError: "timeout", nextAttemptAt: t0.addingTimeInterval(10), attempts: 1, at: t0.addingTimeInterval(2)),
        ], owner: "W")
        let depth = try store.queueDepth()
        #expect(depth.count == 1)
        #expect(try store.claimDue(limit: 10, now: t0.addingTimeInterval(5), leaseUntil: t0.addingTimeInterval(30), owner: "W").isEmpty)
        let retried = try store.claimDue(limit: 10, now: t0.addingTimeInterval(10), leaseUntil: t0.addingTimeInterval(40), owner: "W")
        #expect(retried.map(\.id) == ["msg_retry"])
        #expect(retried.first?.sealedPayload == [9, 9, 9])
        #expect(retried.first?.attempts == 1)
        #expect(retried.first?.lastError == "timeout")
    }

    @Test(arguments: StoreKind.allCases)
    func releaseLeasesMakesMessagesClaimableAtOnce(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { tx in
            try tx.insert(sample())
            try tx.enqueue(message("msg_1"))
        }
        #expect(try store.claimDue(limit: 1, now: t0, leaseUntil: t0.addingTimeInterval(30), owner: "A").count == 1)
        try store.releaseLeases(owner: "A")
        #expect(try store.claimDue(limit: 1, now: t0, leaseUntil: t0.addingTimeInterval(30), owner: "B").count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func purgeRemovesOnlyWhatEndedBeforeTheCutoff(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { tx in
            try tx.insert(sample("ver_old", expires: 10))
            try tx.insert(sample("ver_new", expires: 10_000))
        }
        _ = try store.purge(endedBefore: t0.addingTimeInterval(100))
        #expect(try store.read { try $0.verification(id: "ver_old") } == nil)
        #expect(try store.read { try $0.verification(id: "ver_new") } != nil)
    }

    /// Idempotency records may outlive a short retention: a repeated key must still replay.
    @Test(arguments: StoreKind.allCases)
    func idempotencyRecordsHaveTheirOwnCutoff(kind: StoreKind) throws {
        let store = try kind.make()
        let record = IdempotencyRecord(key: "ip|k", fingerprint: "f", verificationID: "ver_1", snapshot: sample(), createdAt: t0)
        try store.write { try $0.saveIdempotencyRecord(record) }
        _ = try store.purge(endedBefore: t0.addingTimeInterval(700), idempotencyBefore: t0.addingTimeInterval(-3600))
        #expect(try store.read { try $0.idempotencyRecord(key: "ip|k", notBefore: t0) } != nil)
        _ = try store.purge(endedBefore: t0.addingTimeInterval(700), idempotencyBefore: t0.addingTimeInterval(1))
        #expect(try store.read { try $0.idempotencyRecord(key: "ip|k", notBefore: t0) } == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentWritersAreSerialised(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { try $0.insert(sample()) }
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            _ = try? store.write { tx in
                guard var v = try tx.verification(id: "ver_1") else { return }
                v.attempts += 1
                try tx.update(v)
            }
        }
        #expect(try store.read { try $0.verification(id: "ver_1") }?.attempts == 200)
    }

    @Test(arguments: StoreKind.allCases)
    func receiptsAndLeaseRenewal(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { tx in
            try tx.insert(sample())
            try tx.enqueue(message("msg_1"))
        }
        _ = try store.claimDue(limit: 1, now: t0, leaseUntil: t0.addingTimeInterval(10), owner: "A")
        #expect(try store.renewLeases(owner: "A", ids: ["msg_other"], until: t0.addingTimeInterval(100)) == 0)
        #expect(try store.renewLeases(owner: "B", ids: ["msg_1"], until: t0.addingTimeInterval(100)) == 0)
        #expect(try store.renewLeases(owner: "A", ids: ["msg_1"], until: t0.addingTimeInterval(100)) == 1)
        #expect(try store.claimDue(limit: 1, now: t0.addingTimeInterval(50), leaseUntil: t0.addingTimeInterval(80), owner: "B").isEmpty)
        try store.complete([OutboxOutcome(messageID: "msg_1", status: .sent, gateway: "twilio", providerMessageID: "SM1", lastError: nil, nextAttemptAt: nil, attempts: 1, at: t0)], owner: "A")
        #expect(try store.recordReceipt(gateway: "twilio", providerMessageID: "SM1", status: .delivered, error: nil, at: t0.addingTimeInterval(5)))
        #expect(try store.recordReceipt(gateway: "twilio", providerMessageID: "SM1", status: .sent, error: nil, at: t0.addingTimeInterval(6)))
        #expect(try store.recordReceipt(gateway: "vonage", providerMessageID: "SM1", status: .failed, error: nil, at: t0) == false)
        let latest = try #require(try store.read { try $0.latestMessage(verificationID: "ver_1") })
        #expect(latest.status == .delivered)
        #expect(latest.sealedPayload.isEmpty)
        #expect(latest.updatedAt == t0.addingTimeInterval(5))
    }

    @Test(arguments: StoreKind.allCases)
    func limitLogsAndFraudCounters(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { tx in
            try tx.setLimitEvents(key: "phone_send|+1", events: [1, 2, Int64.max], expiresAt: t0)
            try tx.addFraudCounts(key: "prefix:+1555", bucket: t0, sent: 2, approved: 0)
            try tx.addFraudCounts(key: "prefix:+1555", bucket: t0, sent: 1, approved: 1)
            try tx.addFraudCounts(key: "prefix:+1555", bucket: t0.addingTimeInterval(-7200), sent: 5, approved: 0)
            try tx.setFraudOverride(key: "country:NG", action: .block, now: t0)
        }
        #expect(try store.read { try $0.limitEvents(key: "phone_send|+1") } == [1, 2, Int64.max])
        #expect(try store.read { try $0.limitEvents(key: "other") } == [])
        let counts = try store.read { try $0.fraudCounts(key: "prefix:+1555", since: t0.addingTimeInterval(-3600)) }
        #expect(counts.sent == 3 && counts.approved == 1)
        #expect(try store.read { try $0.fraudOverride(key: "country:NG") } == .block)
        let stats = try store.read { try $0.fraudStats(since: t0.addingTimeInterval(-3600)) }
        #expect(stats.contains(FraudStat(key: "prefix:+1555", sent: 3, approved: 1, action: nil)))
        #expect(stats.contains(FraudStat(key: "country:NG", sent: 0, approved: 0, action: .block)))
        try store.write { try $0.setFraudOverride(key: "country:NG", action: nil, now: t0) }
        #expect(try store.read { try $0.fraudOverride(key: "country:NG") } == nil)
    }

    /// Counters named in the read set (loaded up front) read the transaction's own additions,
    /// with or without the prefetch, and the additions are all there afterwards.
    @Test(arguments: StoreKind.allCases)
    func fraudCountersReadTheirOwnWrites(kind: StoreKind) throws {
        let store = try kind.make()
        let since = t0.addingTimeInterval(-3600)
        try store.write { tx in
            try tx.addFraudCounts(key: "prefix:+1555", bucket: t0.addingTimeInterval(-600), sent: 4, approved: 1)
            try tx.setFraudOverride(key: "country:US", action: .allow, now: t0)
            try tx.setLimitEvents(key: "phone_send|+15555550123", events: [7, 8], expiresAt: t0.addingTimeInterval(60))
        }
        let reads = ReadSet(
            limitKeys: ["phone_send|+15555550123", "ip_send|10.0.0.1"], fraudKeys: ["prefix:+1555", "country:US"], fraudSince: since)
        let seen = try store.write(reading: reads) { tx -> [Int] in
            #expect(try tx.limitEvents(key: "phone_send|+15555550123") == [7, 8])
            #expect(try tx.limitEvents(key: "ip_send|10.0.0.1") == [])
            #expect(try tx.fraudOverride(key: "country:US") == .allow)
            #expect(try tx.fraudOverride(key: "prefix:+1555") == nil)
            let before = try tx.fraudCounts(key: "prefix:+1555", since: since)
            try tx.addFraudCounts(key: "prefix:+1555", bucket: t0, sent: 1, approved: 0)
            try tx.addFraudCounts(key: "country:US", bucket: t0, sent: 1, approved: 0)
            try tx.addFraudCounts(key: "prefix:+1555", bucket: t0.addingTimeInterval(-7200), sent: 9, approved: 0)  // before `since`
            let after = try tx.fraudCounts(key: "prefix:+1555", since: since)
            let other = try tx.fraudCounts(key: "country:US", since: since)
            let unprefetched = try tx.fraudCounts(key: "prefix:+1555", since: t0.addingTimeInterval(-60))
            return [before.sent, before.approved, after.sent, other.sent, unprefetched.sent]
        }
        #expect(seen == [4, 1, 5, 1, 1])
        let total = try store.read { try $0.fraudCounts(key: "prefix:+1555", since: t0.addingTimeInterval(-86_400)) }
        #expect(total.sent == 14 && total.approved == 1)
    }
}
