import Foundation
import Testing
import VerifyCore

/// One-time redemption of credentials (introspection): every store records a `jti` once.
@Suite struct RedemptionTests {
    @Test(arguments: StoreKind.allCases)
    func aCredentialIsRedeemedOnceAndForgottenAfterItExpires(kind: StoreKind) throws {
        let store = try #require(try kind.make() as? any CredentialRedemptionStore & OutboxStore)
        #expect(try store.redeem(jti: "jti_a", expiresAt: t0.addingTimeInterval(300), attempt: "red_1"))
        #expect(try store.redeem(jti: "jti_a", expiresAt: t0.addingTimeInterval(300), attempt: "red_2") == false)
        // The same attempt again (a retry after a lost connection) is still the one that redeemed it.
        #expect(try store.redeem(jti: "jti_a", expiresAt: t0.addingTimeInterval(300), attempt: "red_1"))
        #expect(try store.redeem(jti: "jti_b", expiresAt: t0.addingTimeInterval(900), attempt: "red_3"))
        // Concurrent redemptions of one credential: exactly one wins.
        let wins = Wins()
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            do {
                if try store.redeem(jti: "jti_c", expiresAt: t0.addingTimeInterval(300), attempt: "red_c\(i)") { wins.add() }
            } catch {
                wins.fail()
            }
        }
        #expect(wins.count == 1 && wins.failures == 0)
        // Purged once expired before the cutoff; until then, still redeemed.
        _ = try store.purge(endedBefore: t0.addingTimeInterval(600))
        #expect(try store.redeem(jti: "jti_a", expiresAt: t0.addingTimeInterval(300), attempt: "red_4"))
        #expect(try store.redeem(jti: "jti_b", expiresAt: t0.addingTimeInterval(900), attempt: "red_5") == false)
    }

    final class Wins: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        private var failed = 0
        func add() {
            lock.lock()
            n += 1
            lock.unlock()
        }
        func fail() {
            lock.lock()
            failed += 1
            lock.unlock()
        }
        var failures: Int {
            lock.lock()
            defer { lock.unlock() }
            return failed
        }
        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return n
        }
    }
}
