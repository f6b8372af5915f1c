import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// A signed-out console session stays refused on every replica until it would have expired, and
/// the per-IP sign-in throttle counts across replicas: both live in the store.
@Suite struct SessionRevocationTests {
    @Test(arguments: StoreKind.allCases)
    func aRevocationHoldsUntilItsExpiryForEveryReader(kind: StoreKind) throws {
        let store = try kind.make()
        let clock = ManualClock()
        let replicaA = SessionRevocations(store: store, clock: clock)
        let replicaB = SessionRevocations(store: store, clock: clock)
        #expect(try !replicaB.isRevoked("abc123"))
        try replicaA.revoke("abc123", until: clock.now().addingTimeInterval(900))
        #expect(try replicaB.isRevoked("abc123"))
        #expect(try !replicaB.isRevoked("abc124"))
        clock.advance(899)
        #expect(try replicaB.isRevoked("abc123"))
        clock.advance(2)
        #expect(try !replicaB.isRevoked("abc123"))
    }

    @Test(arguments: StoreKind.allCases)
    func failuresOfOneClientDelayOnlyThatClientOnEveryReplica(kind: StoreKind) throws {
        let store = try kind.make()
        let clock = ManualClock()
        let a = AuthThrottle(store: store, clock: clock), b = AuthThrottle(store: store, clock: clock)
        for _ in 0..<5 { #expect(try a.recordFailure(client: "203.0.113.9") == nil) }
        #expect(try b.wait(client: "203.0.113.9") == nil)
        #expect(try b.recordFailure(client: "203.0.113.9") == 1)
        #expect(try a.wait(client: "203.0.113.9") == 1)
        #expect(try a.recordFailure(client: "203.0.113.9") == 2)
        #expect(try a.recordFailure(client: "203.0.113.9") == 4)
        #expect(try b.wait(client: "198.51.100.7") == nil)
        clock.advance(4)
        #expect(try b.wait(client: "203.0.113.9") == nil)
        clock.advance(3600)
        #expect(try b.recordFailure(client: "203.0.113.9") == nil)
    }
}
