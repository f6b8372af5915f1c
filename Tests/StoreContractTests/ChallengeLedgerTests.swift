import Foundation
import Testing
import VerifyCore

/// Challenge state: a token is accepted once across processes, an App Attest key is attested
/// once, and its counter only moves up, atomically.
@Suite struct ChallengeLedgerTests {
    @Test(arguments: StoreKind.allCases)
    func aTokenIsConsumedOnceUntilItExpires(kind: StoreKind) throws {
        let store = try #require(try kind.make() as? any ChallengeLedger & OutboxStore)
        #expect(try store.consumeOnce(key: "turnstile|abc", expiresAt: t0.addingTimeInterval(300), now: t0))
        #expect(try store.consumeOnce(key: "turnstile|abc", expiresAt: t0.addingTimeInterval(300), now: t0.addingTimeInterval(10)) == false)
        #expect(try store.consumeOnce(key: "hcaptcha|abc", expiresAt: t0.addingTimeInterval(300), now: t0))
        let wins = RedemptionTests.Wins()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            do {
                if try store.consumeOnce(key: "grant|jti-1", expiresAt: t0.addingTimeInterval(300), now: t0) { wins.add() }
            } catch {
                wins.fail()
            }
        }
        #expect(wins.count == 1 && wins.failures == 0)
        // Once its record expired, a key is new again (a vendor never accepts so old a token).
        #expect(try store.consumeOnce(key: "turnstile|abc", expiresAt: t0.addingTimeInterval(900), now: t0.addingTimeInterval(301)))
        _ = try store.purge(endedBefore: t0.addingTimeInterval(600))
        #expect(try store.consumeOnce(key: "turnstile|abc", expiresAt: t0.addingTimeInterval(900), now: t0.addingTimeInterval(302)) == false)
    }

    @Test(arguments: StoreKind.allCases)
    func anAttestedKeyIsStoredOnceAndItsCounterOnlyRises(kind: StoreKind) throws {
        let store = try #require(try kind.make() as? any ChallengeLedger)
        let key = AttestedKey(
            keyID: "a2V5", appID: "TEAMID1234.com.example.app", publicKey: [0x30, 0x59, 0x00, 0xff], counter: 0,
            environment: "production", createdAt: t0)
        #expect(try store.attestedKey(id: "a2V5") == nil)
        #expect(try store.insertAttestedKey(key))
        #expect(try store.insertAttestedKey(key) == false)
        #expect(try store.attestedKey(id: "a2V5") == key)
        #expect(try store.advanceAttestedKeyCounter(id: "a2V5", to: 1))
        #expect(try store.advanceAttestedKeyCounter(id: "a2V5", to: 1) == false)
        #expect(try store.advanceAttestedKeyCounter(id: "a2V5", to: 0) == false)
        #expect(try store.advanceAttestedKeyCounter(id: "unknown", to: 5) == false)
        let wins = RedemptionTests.Wins()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            do {
                if try store.advanceAttestedKeyCounter(id: "a2V5", to: 7) { wins.add() }
            } catch {
                wins.fail()
            }
        }
        #expect(wins.count == 1 && wins.failures == 0)
        #expect(try store.attestedKey(id: "a2V5")?.counter == 7)
    }
}
