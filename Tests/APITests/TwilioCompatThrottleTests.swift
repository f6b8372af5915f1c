@testable import API
import Foundation
import Testing
import TwilioCompatAPI
import VerifyCore
import VerifyTesting

/// Guessed Twilio credentials on `/v2` back off per client address and claimed account, as the
/// native API's keys do per address (docs/OPERATIONS.md, "Sign-in throttle"), in Twilio's error
/// shape; a client that never failed on this replica costs no store read.
@Suite struct TwilioCompatThrottleTests {
    typealias H = TwilioCompatHarness

    @Test func guessedCredentialsBackOffPerAddressInTwilioShape() {
        let h = H(throttle: true)
        let service = h.createService()
        let wrong = H.basic(H.account, "not-the-token-0000000000")
        for _ in 0..<6 {
            let refused = h.call("GET", "/v2/Services/\(service)", auth: wrong, peer: "203.0.113.9")
            #expect(refused.status == 401 && refused.code == 20003)
        }
        // The right token from the guessing address waits too, or guesses would still get through.
        let waiting = h.call("GET", "/v2/Services/\(service)", peer: "203.0.113.9")
        #expect(waiting.status == 429 && waiting.code == 20429)
        #expect(waiting.headers["Retry-After"] == "1")
        // The account's own servers, elsewhere, are not slowed by a stranger's guesses, and
        // another tenant behind the guesser's address (a shared egress) is not either.
        #expect(h.call("GET", "/v2/Services/\(service)", peer: "198.51.100.7").status == 200)
        #expect(h.call("GET", "/v2/Services", auth: H.basic(H.other, H.otherToken), peer: "203.0.113.9").status == 200)
        h.t.clock.advance(1)
        #expect(h.call("GET", "/v2/Services/\(service)", peer: "203.0.113.9").status == 200)
    }

    @Test func aUserNameThatIsNoSIDSharesOneBucketPerAddress() {
        #expect(TwilioCompatCredentials.claimedUser(H.basic(H.account, "x")) == H.account)
        #expect(TwilioCompatCredentials.claimedUser(H.basic("someone", "x")) == "?")
        #expect(TwilioCompatCredentials.claimedUser("Bearer abc") == "?")
        #expect(TwilioCompatCredentials.claimedUser(nil) == "?")
    }

    @Test func anAddressThatNeverFailedHereCostsNoStoreRead() {
        let h = H(throttle: true)
        let service = h.createService()
        func readsOfOneRequest() -> Int {
            let before = h.t.store.reads
            #expect(h.call("GET", "/v2/Services/\(service)", peer: "198.51.100.7").status == 200)
            return h.t.store.reads - before
        }
        let clean = readsOfOneRequest()
        #expect(readsOfOneRequest() == clean)
        // After a failure, that address's requests also read the shared failure log: one more.
        #expect(h.call("GET", "/v2/Services/\(service)", auth: H.basic(H.account, "wrong-token-0000000000"), peer: "198.51.100.7").status == 401)
        #expect(readsOfOneRequest() == clean + 1)
    }

    @Test func requestsWithoutBasicCredentialsAreNotAttempts() {
        let h = H(throttle: true)
        for _ in 0..<8 {
            #expect(h.call("GET", "/v2/Services", auth: nil, peer: "203.0.113.9").status == 401)
        }
        #expect(h.call("GET", "/v2/Services", peer: "203.0.113.9").status == 200)
    }

    @Test func recentFailuresRemembersAClientForTheWindowWithinItsCapacity() {
        let clock = ManualClock()
        let recent = RecentFailures(clock: clock, window: 60, capacity: 2)
        #expect(!recent.contains("203.0.113.9"))
        recent.insert("203.0.113.9")
        #expect(recent.contains("203.0.113.9"))
        clock.advance(61)
        #expect(!recent.contains("203.0.113.9"))
        // Full: the expired entries go first, then all; the newest client is always kept.
        recent.insert("198.51.100.1")
        recent.insert("198.51.100.2")
        recent.insert("198.51.100.3")
        #expect(recent.contains("198.51.100.3"))
    }
}
