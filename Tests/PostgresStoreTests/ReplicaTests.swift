import Foundation
import Postgres
import PostgresStore
import Testing
import VerifyCore
import VerifyTesting
import ThreadTesting

/// Two `PostgresStore`s on one schema are two replicas (two pools, separate caches): every
/// promise must hold across them exactly as it does inside one SQLite process.
@Suite("Exactness across replicas")
struct ReplicaTests {
    /// Two replicas' services over one database, sharing one manual clock.
    struct Pair {
        let stores: [PostgresStore]
        let services: [VerificationService]
        let clock = ManualClock()

        init(protection: AbuseProtection = AbuseProtection(), policy: VerificationPolicy = VerificationPolicy()) throws {
            let schema = TestDatabase.freshSchema()
            stores = [try TestDatabase.store(schema: schema), try TestDatabase.store(schema: schema)]
            let clock = self.clock
            services = stores.map { makeService($0, clock: clock, protection: protection, policy: policy) }
        }

        func service(_ index: Int) -> VerificationService { services[index % services.count] }
    }

    static func limits(_ overrides: [LimitScope: [LimitRule]]) -> AbuseProtection {
        var limits = RateLimits.defaults
        limits.rules[.ipSend] = [LimitRule(quota: 10_000, window: 600)]
        limits.rules[.ipCheck] = [LimitRule(quota: 10_000, window: 600)]
        for (scope, rules) in overrides { limits.rules[scope] = rules }
        return AbuseProtection(limits: limits)
    }

    @Test func aPhoneQuotaOfFiveAdmitsExactlyFiveOfAHundredParallelStarts() throws {
        let pair = try Pair(protection: Self.limits([.phoneSend: [LimitRule(quota: 5, window: 3600)]]))
        let outcomes = Collector<Outcome>()
        onThreads(100) { i in
            outcomes.append(Outcome {
                _ = try pair.service(i).start(StartRequest(phoneNumber: "+15555550100", clientIP: "10.0.0.\(i % 7)"))
            })
        }
        let all = outcomes.values
        #expect(all.failures.isEmpty, "\(all.failures)")
        #expect(all.count(.ok) == 5)
        #expect(all.count(.refused(.rateLimited)) == 95)
        #expect(try pair.stores[0].queueDepth().count == 5)
    }

    @Test func anIPQuotaHoldsAcrossReplicasAndNumbers() throws {
        var limits = RateLimits.defaults
        limits.rules[.ipSend] = [LimitRule(quota: 7, window: 600)]
        let pair = try Pair(protection: AbuseProtection(limits: limits))
        let outcomes = Collector<Outcome>()
        onThreads(60) { i in
            outcomes.append(Outcome {
                // One number in each of 60 blocks: the fraud guard holds one block's unconfirmed
                // codes to its usual volume, which is not what this test counts.
                _ = try pair.service(i).start(StartRequest(phoneNumber: "+1555\(String(format: "%03d", i))0100", clientIP: "192.0.2.9"))
            })
        }
        let all = outcomes.values
        #expect(all.failures.isEmpty, "\(all.failures)")
        #expect(all.count(.ok) == 7)
        #expect(all.count(.refused(.rateLimited)) == 53)
    }

    @Test func fiftyParallelWrongGuessesNeverExceedTheAttemptCap() throws {
        let pair = try Pair(protection: Self.limits([:]))
        let started = try pair.service(0).start(StartRequest(phoneNumber: "+15555550101"))
        let id = started.verification.id
        let bad = wrong(try lastCode(pair.stores[0], id))
        let outcomes = Collector<Outcome>()
        onThreads(50) { i in
            outcomes.append(Outcome { _ = try pair.service(i).check(id: id, code: bad, clientIP: "10.1.0.\(i % 5)") })
        }
        let all = outcomes.values
        #expect(all.failures.isEmpty, "\(all.failures)")
        #expect(all.count(.refused(.incorrectCode)) == 5)
        #expect(all.count(.refused(.maxAttemptsReached)) == 45)
        let stored = try #require(try pair.stores[1].read { try $0.verification(id: id) })
        #expect(stored.attempts == 5)
        #expect(stored.storedStatus == .maxAttemptsReached)
    }

    @Test func twentyParallelCorrectChecksApproveExactlyOnce() throws {
        let pair = try Pair(protection: Self.limits([:]))
        let started = try pair.service(1).start(StartRequest(phoneNumber: "+15555550102"))
        let id = started.verification.id
        let code = try lastCode(pair.stores[1], id)
        let outcomes = Collector<Outcome>()
        onThreads(20) { i in
            outcomes.append(Outcome { _ = try pair.service(i).check(id: id, code: code, clientIP: "10.2.0.1") })
        }
        let all = outcomes.values
        #expect(all.failures.isEmpty, "\(all.failures)")
        #expect(all.count(.ok) == 1)
        #expect(all.count(.refused(.alreadyUsed)) == 19)
        let stored = try #require(try pair.stores[0].read { try $0.verification(id: id) })
        #expect(stored.storedStatus == .approved && stored.attempts == 1)
    }

    @Test func theLockoutCountsFailuresAcrossVerificationsAndReplicasExactly() throws {
        let pair = try Pair(protection: Self.limits([.phoneFailedCheck: [LimitRule(quota: 2, window: 86_400)]]))
        var targets: [(id: String, bad: String)] = []
        for i in 0..<4 {
            let started = try pair.service(i).start(StartRequest(phoneNumber: "+15555550103"))
            targets.append((started.verification.id, wrong(try lastCode(pair.stores[0], started.verification.id))))
        }
        let chosen = targets
        let outcomes = Collector<Outcome>()
        onThreads(40) { i in
            let target = chosen[i % chosen.count]
            outcomes.append(Outcome { _ = try pair.service(i).check(id: target.id, code: target.bad, clientIP: "10.3.0.1") })
        }
        let all = outcomes.values
        #expect(all.failures.isEmpty, "\(all.failures)")
        #expect(all.count(.refused(.incorrectCode)) == 3)
        #expect(all.count(.refused(.rateLimited)) == 37)
    }

    @Test func parallelStartsWithOneIdempotencyKeyCreateOneVerification() throws {
        let pair = try Pair(protection: Self.limits([:]))
        let ids = Collector<String>()
        let replays = Collector<Bool>()
        let errors = Collector<String>()
        onThreads(20) { i in
            do {
                let outcome = try pair.service(i).start(StartRequest(
                    phoneNumber: "+15555550104", clientIP: "10.4.0.1", idempotencyKey: "same-key"))
                ids.append(outcome.verification.id)
                replays.append(outcome.replayed)
            } catch {
                errors.append("\(error)")
            }
        }
        #expect(errors.values.isEmpty, "\(errors.values)")
        #expect(Set(ids.values).count == 1)
        #expect(replays.values.filter { !$0 }.count == 1)
        #expect(try pair.stores[0].queueDepth().count == 1)
    }

    @Test func parallelEnrolmentsOfOnePhoneStoreOneFactor() throws {
        let schema = TestDatabase.freshSchema()
        let stores = [try TestDatabase.store(schema: schema), try TestDatabase.store(schema: schema)]
        let outcomes = Collector<Outcome>()
        onThreads(12) { i in
            outcomes.append(Outcome {
                try stores[i % 2].write(reading: ReadSet(factorSubjects: ["user-1"])) { tx in
                    guard try tx.factors(subject: "user-1").count < 5 else {
                        throw VerifyError(.factorLimitReached, "full")
                    }
                    try tx.insertFactor(Factor(
                        id: "fac_\(i)", subject: "user-1", phoneNumber: "+15555550105", countryCode: 1, createdAt: Date()))
                }
            })
        }
        let all = outcomes.values
        #expect(all.failures.isEmpty, "\(all.failures)")
        #expect(all.count(.ok) == 1)
        #expect(all.count(.refused(.factorExists)) == 11)
        #expect(try stores[1].read { try $0.factors(subject: "user-1") }.count == 1)
    }

    @Test func twoReplicasClaimingTheOutboxNeverShareAMessage() throws {
        let schema = TestDatabase.freshSchema()
        let stores = [try TestDatabase.store(schema: schema), try TestDatabase.store(schema: schema)]
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        for batch in 0..<6 {
            try stores[0].write { tx in
                for i in 0..<50 {
                    try tx.enqueue(OutboxMessage(
                        id: "msg_\(batch)_\(i)", verificationID: "ver_\(batch)", to: "+15555550106", purpose: .signIn,
                        sealedPayload: [1], createdAt: t0, updatedAt: t0, nextAttemptAt: t0, expiresAt: t0.addingTimeInterval(300)))
                }
            }
        }
        let claimed = Collector<String>()
        let errors = Collector<String>()
        onThreads(6) { worker in
            let store = stores[worker % 2]
            let owner = "worker-\(worker)"
            while true {
                do {
                    let batch = try store.claimDue(limit: 7, now: t0, leaseUntil: t0.addingTimeInterval(30), owner: owner)
                    if batch.isEmpty { break }
                    for message in batch { claimed.append(message.id) }
                    try store.complete(batch.map {
                        OutboxOutcome(messageID: $0.id, status: .sent, gateway: "fake", providerMessageID: "p-\($0.id)",
                                      lastError: nil, nextAttemptAt: nil, attempts: 1, at: t0)
                    }, owner: owner)
                } catch {
                    errors.append("\(error)")
                    break
                }
            }
        }
        #expect(errors.values.isEmpty, "\(errors.values)")
        #expect(claimed.values.count == 300)
        #expect(Set(claimed.values).count == 300)
        #expect(try stores[1].queueDepth().count == 0)
    }

    @Test func concurrentWritersOnTwoReplicasAreSerialised() throws {
        let schema = TestDatabase.freshSchema()
        let stores = [try TestDatabase.store(schema: schema), try TestDatabase.store(schema: schema)]
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        try stores[0].write { tx in
            try tx.insert(Verification(
                id: "ver_1", phoneNumber: "+15555550107", display: "+1", region: "US", countryCode: 1, locale: nil, purpose: .signIn,
                codeHash: [1], codeLength: 6, maxAttempts: 1000, maxSends: 5, createdAt: t0, expiresAt: t0.addingTimeInterval(300),
                lastSentAt: t0, resendAvailableAt: t0))
        }
        let errors = Collector<String>()
        onThreads(16) { worker in
            for _ in 0..<25 {
                do {
                    try stores[worker % 2].write(reading: ReadSet(verifications: ["ver_1"])) { tx in
                        guard var v = try tx.verification(id: "ver_1") else { return }
                        v.attempts += 1
                        try tx.update(v)
                    }
                } catch {
                    errors.append("\(error)")
                }
            }
        }
        #expect(errors.values.isEmpty, "\(errors.values)")
        #expect(try stores[1].read { try $0.verification(id: "ver_1") }?.attempts == 400)
    }

    static func verification(_ id: String, attempts: Int = 0) -> Verification {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        return Verification(
            id: id, phoneNumber: "+15555550108", display: "+1", region: "US", countryCode: 1, locale: nil, purpose: .signIn,
            codeHash: [1], codeLength: 6, attempts: attempts, maxAttempts: 1000, maxSends: 5, createdAt: t0,
            expiresAt: t0.addingTimeInterval(300), lastSentAt: t0, resendAvailableAt: t0)
    }

    /// With nothing else to serialise on (no limit keys), two first requests with one key both
    /// find no record; the second insert hits the unique key, its body reruns and replays.
    @Test func aConcurrentIdempotencyInsertIsRetriedIntoAReplay() throws {
        let schema = TestDatabase.freshSchema()
        let stores = [try TestDatabase.store(schema: schema), try TestDatabase.store(schema: schema)]
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let answers = Collector<String>()
        let errors = Collector<String>()
        onThreads(16) { i in
            do {
                answers.append(try stores[i % 2].write(reading: ReadSet(idempotencyKeys: ["client|key"])) { tx -> String in
                    if let record = try tx.idempotencyRecord(key: "client|key", notBefore: t0) { return record.verificationID }
                    let v = Self.verification("ver_\(i)")
                    try tx.insert(v)
                    try tx.saveIdempotencyRecord(IdempotencyRecord(
                        key: "client|key", fingerprint: "f", verificationID: v.id, snapshot: v, createdAt: t0))
                    return v.id
                })
            } catch {
                errors.append("\(error)")
            }
        }
        #expect(errors.values.isEmpty, "\(errors.values)")
        #expect(Set(answers.values).count == 1)
        let connection = try TestDatabase.connect(schema: schema)
        #expect(try connection.queryFirst("SELECT COUNT(*) AS n FROM verifications")?.int("n") == 1)
    }

    /// Two transactions locking two rows in opposite orders deadlock; PostgreSQL aborts one
    /// (40P01) and the store reruns it, so both complete.
    @Test func aDeadlockIsRetried() throws {
        let schema = TestDatabase.freshSchema()
        let stores = [try TestDatabase.store(schema: schema), try TestDatabase.store(schema: schema)]
        try stores[0].write { tx in
            try tx.insert(Self.verification("ver_a"))
            try tx.insert(Self.verification("ver_b"))
        }
        let monitor = try TestDatabase.connect()
        let deadlocksBefore = try Self.deadlocks(monitor)
        let errors = Collector<String>()
        onThreads(2) { i in
            let (first, second) = i == 0 ? ("ver_a", "ver_b") : ("ver_b", "ver_a")
            do {
                try stores[i].write(reading: ReadSet(verifications: [first])) { tx in
                    guard var one = try tx.verification(id: first) else { return }
                    // Hold the first lock long enough for the other transaction to take its own.
                    usleep(150_000)
                    guard var two = try tx.verification(id: second) else { return }
                    one.attempts += 1
                    two.attempts += 1
                    try tx.update(one)
                    try tx.update(two)
                }
            } catch {
                errors.append("\(error)")
            }
        }
        #expect(errors.values.isEmpty, "\(errors.values)")
        #expect(try stores[1].read { try $0.verification(id: "ver_a") }?.attempts == 2)
        #expect(try stores[1].read { try $0.verification(id: "ver_b") }?.attempts == 2)
        // The server counted the deadlock (statistics arrive within a second or so).
        let deadline = Date().addingTimeInterval(5)
        var deadlocksAfter = try Self.deadlocks(monitor)
        while deadlocksAfter <= deadlocksBefore && Date() < deadline {
            usleep(200_000)
            deadlocksAfter = try Self.deadlocks(monitor)
        }
        #expect(deadlocksAfter > deadlocksBefore)
    }

    static func deadlocks(_ connection: PostgresConnection) throws -> Int64 {
        _ = try connection.query("SELECT pg_stat_clear_snapshot()")
        return try connection.queryFirst("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")?.int("deadlocks") ?? 0
    }
}
