import Foundation
import Postgres
import PostgresStore
import Testing
import VerifyCore
import ThreadTesting

@Suite("Migrations and purge")
struct MigrationAndPurgeTests {
    @Test func replicasStartingTogetherMigrateOnce() throws {
        let schema = TestDatabase.freshSchema()
        let stores = Collector<PostgresStore>()
        let errors = Collector<String>()
        onThreads(4) { _ in
            do { stores.append(try TestDatabase.store(schema: schema, poolSize: 2)) } catch { errors.append("\(error)") }
        }
        #expect(errors.values.isEmpty, "\(errors.values)")
        #expect(stores.values.count == 4)
        let connection = try TestDatabase.connect(schema: schema)
        let versions = try connection.query("SELECT version FROM schema_migrations ORDER BY version").compactMap { $0.int("version") }
        #expect(versions == (1...Int64(PostgresStore.latestSchemaVersion)).map { $0 })
        #expect(PostgresStore.latestSchemaVersion == 15)
        // Opening again applies nothing.
        _ = try TestDatabase.store(schema: schema, poolSize: 1)
        #expect(try connection.queryFirst("SELECT COUNT(*) AS n FROM schema_migrations")?.int("n") == Int64(versions.count))
    }

    @Test func aDatabaseNewerThanTheCodeIsRefused() throws {
        let schema = TestDatabase.freshSchema()
        _ = try TestDatabase.store(schema: schema, poolSize: 1)
        let connection = try TestDatabase.connect(schema: schema)
        try connection.run("INSERT INTO schema_migrations (version, name) VALUES (99, 'from the future')")
        do {
            _ = try TestDatabase.store(schema: schema, poolSize: 1)
            Issue.record("a newer database was accepted")
        } catch let error as PostgresStoreError {
            guard case .databaseIsNewer(99, PostgresStore.latestSchemaVersion) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
    }

    @Test func theDisplayedURLHidesThePassword() throws {
        // The test cluster trusts 127.0.0.1, so any password connects.
        guard TestDatabase.url.hasPrefix("postgres://postgres@") else { return }
        let url = TestDatabase.url.replacingOccurrences(of: "postgres://postgres@", with: "postgres://postgres:s3cret@")
        let store = try PostgresStore(url: url, poolSize: 1, schema: TestDatabase.freshSchema())
        #expect(!store.displayURL.contains("s3cret"))
        #expect(store.displayURL.contains(":***@"))
    }

    @Test func anInvalidSchemaNameIsRefused() {
        #expect(throws: PostgresStoreError.self) { try PostgresStore(url: TestDatabase.url, schema: "bad; DROP TABLE x") }
    }

    @Test func onlyOneReplicaPurgesAtATime() throws {
        let schema = TestDatabase.freshSchema()
        let store = try TestDatabase.store(schema: schema)
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        try store.write { tx in
            try tx.insert(Verification(
                id: "ver_old", phoneNumber: "+15555550300", display: "+1", region: "US", countryCode: 1, locale: nil,
                purpose: .signIn, codeHash: [1], codeLength: 6, maxAttempts: 5, maxSends: 5, createdAt: t0,
                expiresAt: t0.addingTimeInterval(10), lastSentAt: t0, resendAvailableAt: t0))
        }
        // Another replica is purging: it holds the purge lock for this schema.
        let other = try TestDatabase.connect(schema: schema)
        try other.execute("BEGIN")
        _ = try other.query("SELECT pg_advisory_xact_lock(hashtextextended('phone-verify purge|' || current_schema(), 0))")
        #expect(try store.purge(endedBefore: t0.addingTimeInterval(100)) == 0)
        #expect(try store.read { try $0.verification(id: "ver_old") } != nil)
        try other.execute("ROLLBACK")
        #expect(try store.purge(endedBefore: t0.addingTimeInterval(100)) == 1)
        #expect(try store.read { try $0.verification(id: "ver_old") } == nil)
    }

    /// A receipt held while its message's send commits concurrently (the receipt saw no provider id,
    /// the send's transaction saw no held receipt): the next purge applies it.
    @Test func purgeAppliesAReceiptHeldDuringTheSendsCommit() throws {
        let schema = TestDatabase.freshSchema()
        let store = try TestDatabase.store(schema: schema)
        let t0 = Date()
        try store.write { tx in
            try tx.insert(Verification(
                id: "ver_race", phoneNumber: "+15555550301", display: "+1", region: "US", countryCode: 1, locale: nil,
                purpose: .signIn, codeHash: [1], codeLength: 6, maxAttempts: 5, maxSends: 5, createdAt: t0,
                expiresAt: t0.addingTimeInterval(600), lastSentAt: t0, resendAvailableAt: t0))
            try tx.enqueue(OutboxMessage(
                id: "msg_race", verificationID: "ver_race", to: "+15555550301", purpose: .signIn, sealedPayload: [1],
                createdAt: t0, updatedAt: t0, nextAttemptAt: t0, expiresAt: t0.addingTimeInterval(600)))
        }
        // The send's transaction has recorded the provider id but not committed when the receipt arrives.
        let other = try TestDatabase.connect(schema: schema)
        try other.execute("BEGIN")
        try other.execute("UPDATE outbox SET status = 'sent', gateway = 'twilio', provider_message_id = 'SM-race' WHERE id = 'msg_race'")
        #expect(try store.recordReceipt(gateway: "twilio", providerMessageID: "SM-race", status: .delivered, error: nil, at: t0.addingTimeInterval(1)) == false)
        try other.execute("COMMIT")
        #expect(try store.read { try $0.latestMessage(verificationID: "ver_race") }?.status == .sent)
        _ = try store.purge(endedBefore: t0.addingTimeInterval(-3600))
        #expect(try store.read { try $0.latestMessage(verificationID: "ver_race") }?.status == .delivered)
        #expect(try other.query("SELECT 1 FROM early_receipts").isEmpty)
    }

    /// As above for an `auto` send: the receipt the purge applies moves the message's fallback
    /// too (dropped after `delivered`, due at once after `undelivered`).
    @Test(arguments: [DeliveryStatus.delivered, .undelivered])
    func purgeFollowsTheFallbacksOfTheReceiptsItApplies(status: DeliveryStatus) throws {
        let schema = TestDatabase.freshSchema()
        let store = try TestDatabase.store(schema: schema)
        let t0 = Date()
        try store.write { tx in
            try tx.insert(Verification(
                id: "ver_race", phoneNumber: "+15555550301", display: "+1", region: "US", countryCode: 1, channel: "whatsapp", locale: nil,
                purpose: .signIn, codeHash: [1], codeLength: 6, maxAttempts: 5, sends: 2, maxSends: 5, createdAt: t0,
                expiresAt: t0.addingTimeInterval(600), lastSentAt: t0, resendAvailableAt: t0))
            try tx.enqueue(OutboxMessage(
                id: "msg_race", verificationID: "ver_race", to: "+15555550301", purpose: .signIn, sealedPayload: [1],
                createdAt: t0, updatedAt: t0, nextAttemptAt: t0, expiresAt: t0.addingTimeInterval(600), channel: .whatsapp))
            try tx.enqueue(OutboxMessage(
                id: "msg_race_sms", verificationID: "ver_race", to: "+15555550301", purpose: .signIn, sealedPayload: [1],
                createdAt: t0, updatedAt: t0, nextAttemptAt: t0.addingTimeInterval(300), expiresAt: t0.addingTimeInterval(600),
                channel: .sms, fallbackOf: "msg_race"))
        }
        let other = try TestDatabase.connect(schema: schema)
        try other.execute("BEGIN")
        try other.execute(
            "UPDATE outbox SET status = 'sent', gateway = 'meta-whatsapp', provider_message_id = 'wamid.race', attempts = 1 WHERE id = 'msg_race'")
        #expect(try store.recordReceipt(gateway: "meta-whatsapp", providerMessageID: "wamid.race", status: status, error: nil, at: t0.addingTimeInterval(1)) == false)
        try other.execute("COMMIT")
        _ = try store.purge(endedBefore: t0.addingTimeInterval(-3600))
        let due = try store.claimDue(limit: 10, now: t0.addingTimeInterval(2), leaseUntil: t0.addingTimeInterval(30), owner: "w")
        #expect(due.map(\.id) == (status == .delivered ? [] : ["msg_race_sms"]))
        #expect(try other.query("SELECT 1 FROM outbox WHERE id = 'msg_race_sms'").isEmpty == (status == .delivered))
    }

    @Test func purgeRemovesUnusedLimitPlaceholders() throws {
        let store = try TestDatabase.store(schema: TestDatabase.freshSchema())
        // A refused or read-only transaction leaves its lock rows behind, expiring at 0.
        _ = try store.write(reading: ReadSet(limitKeys: ["phone_send|+1", "ip_send|x"])) { tx in try tx.limitEvents(key: "phone_send|+1") }
        try store.write { tx in try tx.setLimitEvents(key: "ip_send|x", events: [5], expiresAt: Date().addingTimeInterval(3600)) }
        #expect(try store.purge(endedBefore: Date()) == 1)
        #expect(try store.read { try $0.limitEvents(key: "ip_send|x") } == [5])
        #expect(try store.read { try $0.limitEvents(key: "phone_send|+1") } == [])
    }

    /// Two replicas activating different keys at once each see no other active key; without the
    /// one-active index both stayed active. The second waits for the first, fails on the index,
    /// and its retry demotes the first: the last activation wins, as when they start apart.
    @Test func concurrentActivationsLeaveOneActiveKey() throws {
        let schema = TestDatabase.freshSchema()
        let store = try TestDatabase.store(schema: schema)
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let other = try TestDatabase.connect(schema: schema)
        try other.execute("BEGIN")
        try other.execute("""
            INSERT INTO signing_keys (kid, algorithm, public_jwk, created_at, status, retire_after)
            VALUES ('k1', 'EdDSA', '{}', \(Int64(t0.timeIntervalSince1970 * 1000)), 'active', NULL)
            """)
        let finished = Collector<String>()
        let activation = Thread {
            do {
                try store.activate(
                    SigningKeyRecord(kid: "k2", algorithm: "EdDSA", publicJWK: "{}", createdAt: t0, status: .active),
                    now: t0, credentialLifetime: 300)
                finished.append("ok")
            } catch { finished.append("\(error)") }
        }
        activation.start()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(finished.values.isEmpty, "the second activation did not wait for the first")
        try other.execute("COMMIT")
        for _ in 0..<100 where finished.values.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        #expect(finished.values == ["ok"])
        let keys = try store.signingKeys()
        #expect(keys.filter { $0.status == .active }.map(\.kid) == ["k2"])
        #expect(keys.first { $0.kid == "k1" }?.status == .verifying)
    }

    /// A database left with two active keys by the race above keeps only the newest active.
    @Test func theMigrationDemotesAllButTheNewestActiveKey() throws {
        let schema = TestDatabase.freshSchema()
        _ = try TestDatabase.store(schema: schema)
        let connection = try TestDatabase.connect(schema: schema)
        try connection.execute("DROP INDEX signing_keys_one_active")
        try connection.execute("DELETE FROM schema_migrations WHERE version >= 9")
        try connection.execute("""
            INSERT INTO signing_keys (kid, algorithm, public_jwk, created_at, status, retire_after)
            VALUES ('old', 'EdDSA', '{}', 1000, 'active', NULL), ('new', 'EdDSA', '{}', 2000, 'active', NULL)
            """)
        let store = try TestDatabase.store(schema: schema)
        let keys = try store.signingKeys()
        #expect(keys.map(\.kid) == ["old", "new"])
        #expect(keys.map(\.status) == [.verifying, .active])
        #expect((keys[0].retireAfter ?? .distantPast) > Date())
    }

    @Test func signingKeysRotateAsInSQLite() throws {
        let store = try TestDatabase.store(schema: TestDatabase.freshSchema())
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let first = SigningKeyRecord(kid: "k1", algorithm: "EdDSA", publicJWK: "{}", createdAt: t0, status: .active)
        let second = SigningKeyRecord(kid: "k2", algorithm: "EdDSA", publicJWK: "{}", createdAt: t0.addingTimeInterval(1), status: .active)
        try store.activate(first, now: t0, credentialLifetime: 300)
        try store.activate(first, now: t0, credentialLifetime: 300)
        try store.activate(second, now: t0.addingTimeInterval(10), credentialLifetime: 300)
        let keys = try store.signingKeys()
        #expect(keys.map(\.kid) == ["k1", "k2"])
        #expect(keys[0].status == .verifying && keys[0].retireAfter == t0.addingTimeInterval(310))
        #expect(keys[1].status == .active && keys[1].retireAfter == nil)
        try store.keepPublished(kid: "k1", until: t0.addingTimeInterval(200))  // never shortens
        #expect(try store.signingKeys()[0].retireAfter == t0.addingTimeInterval(310))
        try store.keepPublished(kid: "k1", until: t0.addingTimeInterval(400))
        #expect(try store.signingKeys()[0].retireAfter == t0.addingTimeInterval(400))
        try store.keepPublished(kid: "k2", until: t0.addingTimeInterval(400))  // the active key has none
        #expect(try store.signingKeys()[1].retireAfter == nil)
        #expect(try store.retire(kid: "k2") == false)
        #expect(try store.retire(kid: "k1"))
        #expect(try store.signingKeys()[0].status == .retired)
        #expect(try store.retire(kid: "nope") == false)
    }
}
