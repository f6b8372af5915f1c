import Foundation
import Testing
import VerifyCore

/// One-time redemption of credentials (introspection): every store records a `jti` once.
@Suite struct RedemptionTests {
    @Test(arguments: StoreKind.allCases)
    func aCredentialIsRedeemedOnceAndForgottenAfterItExpires(kind: StoreKind) throws {
        let store = try #require(try kind.make() as? any CredentialRedemptionStore & OutboxStore)
        #expect(try store.redeem(jti: "jti_a", expiresAt: t0.addingTimeInterval(300)))
        #expect(try store.redeem(jti: "jti_a", expiresAt: t0.addingTimeInterval(300)) == false)
        #expect(try store.redeem(jti: "jti_b", expiresAt: t0.addingTimeInterval(900)))
        // Concurrent redemptions of one credential: exactly one wins.
        let wins = Wins()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            if (try? store.redeem(jti: "jti_c", expiresAt: t0.addingTimeInterval(300))) == true { wins.add() }
        }
        #expect(wins.count == 1)
        // Purged once expired before the cutoff; until then, still redeemed.
        _ = try store.purge(endedBefore: t0.addingTimeInterval(600))
        #expect(try store.redeem(jti: "jti_a", expiresAt: t0.addingTimeInterval(300)))
        #expect(try store.redeem(jti: "jti_b", expiresAt: t0.addingTimeInterval(900)) == false)
    }

    final class Wins: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func add() {
            lock.lock()
            n += 1
            lock.unlock()
        }
        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return n
        }
    }
}
