import Foundation
import PostgresStore
import Testing
import VerifyCore
import VerifyTesting

/// Round trips per service call, counted by the store: the numbers documented on `PostgresStore`.
@Suite("Round trips")
struct RoundTripTests {
    /// Runs `body` and returns how many round trips it made (nothing else uses the store meanwhile).
    static func trips(_ store: PostgresStore, _ body: () throws -> Void) throws -> Int {
        let before = store.roundTrips
        try body()
        return store.roundTrips - before
    }

    /// Round trips of a call that must be refused with a `VerifyError`.
    static func refusedTrips(_ store: PostgresStore, _ body: () throws -> Void) throws -> Int {
        try trips(store) {
            do {
                try body()
                Issue.record("expected a refusal")
            } catch is VerifyError {}
        }
    }

    @Test func perServiceCall() throws {
        let store = try TestDatabase.store(schema: TestDatabase.freshSchema())
        let clock = ManualClock()
        let service = makeService(store, clock: clock)  // default limits and fraud guard: every read is real

        var id = ""
        let start = try Self.trips(store) { id = try service.start(StartRequest(phoneNumber: "+15555550200", clientIP: "10.9.0.1")).verification.id }
        #expect(start == 2)

        let startWithKey = try Self.trips(store) {
            _ = try service.start(StartRequest(phoneNumber: "+15555550201", clientIP: "10.9.0.1", idempotencyKey: "k1"))
        }
        #expect(startWithKey == 2)
        var replayed = false
        let replay = try Self.trips(store) {
            replayed = try service.start(StartRequest(phoneNumber: "+15555550201", clientIP: "10.9.0.1", idempotencyKey: "k1")).replayed
        }
        #expect(replayed)
        #expect(replay == 2)  // BEGIN + reads, then COMMIT of a read-only body

        let get = try Self.trips(store) { _ = try service.get(id: id) }
        #expect(get == 1)

        let code = try lastCode(store, id)
        let wrongCheck = try Self.refusedTrips(store) { _ = try service.check(id: id, code: wrong(code), clientIP: "10.9.0.1") }
        #expect(wrongCheck == 3)

        clock.advance(31)
        let resend = try Self.trips(store) { _ = try service.resend(id: id, clientIP: "10.9.0.1") }
        #expect(resend == 3)
        let resent = try lastCode(store, id)

        let rightCheck = try Self.trips(store) { _ = try service.check(id: id, code: resent, clientIP: "10.9.0.1") }
        #expect(rightCheck == 3)

        let other = try service.start(StartRequest(phoneNumber: "+15555550202", clientIP: "10.9.0.1")).verification.id
        let cancel = try Self.trips(store) { _ = try service.cancel(id: other) }
        #expect(cancel == 2)

        // A refused start (phone quota of 5 per hour; the start and the resend took 2): BEGIN + reads, then ROLLBACK.
        for _ in 0..<3 { _ = try service.start(StartRequest(phoneNumber: "+15555550200", clientIP: "10.9.0.2")) }
        let refused = try Self.refusedTrips(store) { _ = try service.start(StartRequest(phoneNumber: "+15555550200", clientIP: "10.9.0.2")) }
        #expect(refused == 2)
    }

    @Test func outboxCallsAreOneRoundTripEach() throws {
        let store = try TestDatabase.store(schema: TestDatabase.freshSchema())
        let service = makeService(store, clock: ManualClock())
        _ = try service.start(StartRequest(phoneNumber: "+15555550210"))
        let now = ManualClock().now()
        var claimed: [OutboxMessage] = []
        let claim = try Self.trips(store) { claimed = try store.claimDue(limit: 10, now: now, leaseUntil: now.addingTimeInterval(30), owner: "w") }
        #expect(claim == 1 && claimed.count == 1)
        let renew = try Self.trips(store) { _ = try store.renewLeases(owner: "w", ids: ["msg_1"], until: now.addingTimeInterval(60)) }
        #expect(renew == 1)
        let outcomes = claimed.map {
            OutboxOutcome(messageID: $0.id, status: .sent, gateway: "g", providerMessageID: "p1", lastError: nil, nextAttemptAt: nil, attempts: 1, at: now)
        }
        let complete = try Self.trips(store) { try store.complete(outcomes, owner: "w") }
        #expect(complete == 1)
        var found = false
        let receipt = try Self.trips(store) {
            found = try store.recordReceipt(gateway: "g", providerMessageID: "p1", status: .delivered, error: nil, at: now)
        }
        #expect(receipt == 1 && found)
        let depth = try Self.trips(store) { _ = try store.queueDepth() }
        #expect(depth == 1)
        let purge = try Self.trips(store) { _ = try store.purge(endedBefore: now) }
        #expect(purge == 2)
    }

    /// A blind write (nothing read) needs no fetch: BEGIN, the writes and COMMIT travel together.
    @Test func aBlindWriteIsOneRoundTrip() throws {
        let store = try TestDatabase.store(schema: TestDatabase.freshSchema())
        let trips = try Self.trips(store) {
            try store.write { tx in try tx.setFraudOverride(key: "country:NG", action: .block, now: Date()) }
        }
        #expect(trips == 1)
        #expect(try store.read { try $0.fraudOverride(key: "country:NG") } == .block)
        // A write that only reads names its keys and finds them in one fetch; nothing to commit but the BEGIN.
        let readOnly = try Self.trips(store) {
            _ = try store.write(reading: ReadSet(fraudKeys: ["country:NG"])) { tx in try tx.fraudOverride(key: "country:NG") }
        }
        #expect(readOnly == 2)
    }
}
