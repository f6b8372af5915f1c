import Credentials
import LibCrypto
import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// Where the auth server's keys come from and how often they are fetched: rotation, floods of
/// unknown kids, outages, single-flight fetches, JWKS files.
@Suite struct JWKSRefreshTests {
    /// Whether `verify` refuses with `VerifyError(.unauthenticated)`; usable off the test's thread.
    static func isRejected(_ verifier: SessionTokenVerifier, _ token: String) -> Bool {
        do {
            _ = try verifier.verify(token)
            return false
        } catch let error as VerifyError {
            return error.code == .unauthenticated
        } catch {
            return false
        }
    }

    @Test func unknownKidRefreshesOnceAndPicksUpARotatedKey() throws {
        let auth = try FakeAuthServer(serving: [JWKSFixture.jwk(TestKeys.ed25519, kid: "ed-1")])
        defer { auth.stop() }
        let clock = ManualClock()
        let verifier = try makeVerifier(auth, clock: clock)
        #expect(auth.requests == 1)
        #expect(try verifier.verify(Mint.token(TestKeys.ed25519, kid: "ed-1", claims: Mint.claims(at: clock.now())))
            .subject == "user_alice")

        // The auth server rotates right after our start fetch: the rate limit holds the refetch back.
        auth.serve([JWKSFixture.jwk(TestKeys.ed25519, kid: "ed-1"), JWKSFixture.jwk(TestKeys.nextEd25519, kid: "ed-2")])
        let rotated = Mint.token(TestKeys.nextEd25519, kid: "ed-2", claims: Mint.claims(at: clock.now(), subject: "user_bob"))
        expectRejected(verifier, rotated, "unknown token signing key")
        #expect(auth.requests == 1)

        // Once the minimum interval has passed, the unknown kid triggers exactly one fetch.
        clock.advance(31)
        #expect(try verifier.verify(rotated).subject == "user_bob")
        #expect(auth.requests == 2)
        #expect(try verifier.verify(rotated).subject == "user_bob")
        #expect(try verifier.verify(Mint.token(TestKeys.ed25519, kid: "ed-1", claims: Mint.claims(at: clock.now())))
            .subject == "user_alice")
        #expect(auth.requests == 2)

        // The old key is retired at the auth server: it keeps verifying until the cache is too old.
        auth.serve([JWKSFixture.jwk(TestKeys.nextEd25519, kid: "ed-2")])
        clock.advance(3000)
        #expect(try verifier.verify(Mint.token(TestKeys.ed25519, kid: "ed-1", claims: Mint.claims(at: clock.now())))
            .subject == "user_alice")
        #expect(auth.requests == 2)
        clock.advance(600)
        expectRejected(
            verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: Mint.claims(at: clock.now())),
            "unknown token signing key")
        #expect(auth.requests == 3)
        #expect(try verifier.verify(Mint.token(TestKeys.nextEd25519, kid: "ed-2", claims: Mint.claims(at: clock.now())))
            .subject == "user_alice")
        #expect(auth.requests == 3)
    }

    @Test func floodOfUnknownKidsCostsAtMostOneFetchPerInterval() throws {
        let auth = try FakeAuthServer(serving: JWKSFixture.standard)
        defer { auth.stop() }
        let clock = ManualClock()
        let verifier = try makeVerifier(auth, clock: clock)
        #expect(auth.requests == 1)
        let claims = Mint.claims(at: clock.now(), subject: "user_mallory")
        let flood = (0..<50).map { Mint.token(TestKeys.otherEd25519, kid: "kid-\($0)-\(UUID().uuidString)", claims: claims) }

        // Within the interval after the start fetch: no fetch at all.
        for token in flood { expectRejected(verifier, token, "unknown token signing key") }
        #expect(auth.requests == 1)

        // Next interval, sequential flood: one fetch.
        clock.advance(31)
        for token in flood { expectRejected(verifier, token, "unknown token signing key") }
        #expect(auth.requests == 2)

        // Concurrent flood in the same interval: none.
        let verified = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 50) { verified.record(Self.isRejected(verifier, flood[$0])) }
        #expect(verified.successes == 50)
        #expect(auth.requests == 2)

        // Next interval, concurrent flood against a slow auth server: still a single fetch.
        clock.advance(31)
        auth.setDelay(0.3)
        let rejected = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 50) { rejected.record(Self.isRejected(verifier, flood[$0])) }
        #expect(rejected.successes == 50)
        #expect(auth.requests == 3)

        // Legitimate tokens were never affected.
        #expect(try verifier.verify(Mint.token(TestKeys.p256, kid: "ec-1", claims: Mint.claims(at: clock.now())))
            .subject == "user_alice")
        #expect(auth.requests == 3)
    }

    @Test func concurrentCallersShareOneFetchAndWaitForIt() throws {
        let auth = try FakeAuthServer(serving: [JWKSFixture.jwk(TestKeys.ed25519, kid: "ed-1")])
        defer { auth.stop() }
        let clock = ManualClock()
        let verifier = try makeVerifier(auth, clock: clock)
        clock.advance(31)
        auth.serve([JWKSFixture.jwk(TestKeys.ed25519, kid: "ed-1"), JWKSFixture.jwk(TestKeys.nextEd25519, kid: "ed-2")])
        auth.setDelay(0.5)
        let rotated = Mint.token(TestKeys.nextEd25519, kid: "ed-2", claims: Mint.claims(at: clock.now()))
        let known = Mint.token(TestKeys.ed25519, kid: "ed-1", claims: Mint.claims(at: clock.now()))
        let rotatedOK = ResultBox()
        let knownOK = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 24) { index in
            if index % 3 == 2 {
                // Known kids never wait for the fetch in flight.
                knownOK.record((try? verifier.verify(known))?.subject == "user_alice")
            } else {
                rotatedOK.record((try? verifier.verify(rotated))?.subject == "user_alice")
            }
        }
        #expect(rotatedOK.successes == 16)
        #expect(knownOK.successes == 8)
        #expect(auth.requests == 2)
    }

    @Test func authServerDownAtStartIsRetriedLater() throws {
        let port = unusedLoopbackPort()
        let auth = try FakeAuthServer(serving: JWKSFixture.standard, port: port, listening: false)
        defer { auth.stop() }
        let clock = ManualClock()
        let verifier = try makeVerifier(auth, clock: clock)  // must not throw
        let token = Mint.token(TestKeys.rsa, kid: "rsa-1", claims: Mint.claims(at: clock.now(), subject: "user_carol"))
        expectRejected(verifier, token, "unknown token signing key")

        try auth.start()
        // Still within the minimum interval since the failed attempt.
        expectRejected(verifier, token, "unknown token signing key")
        #expect(auth.requests == 0)
        clock.advance(31)
        #expect(try verifier.verify(token).subject == "user_carol")
        #expect(auth.requests == 1)
    }

    @Test func failedOrGarbageRefreshesKeepTheKeysHeld() throws {
        let auth = try FakeAuthServer(serving: JWKSFixture.standard)
        defer { auth.stop() }
        let clock = ManualClock()
        let verifier = try makeVerifier(auth, clock: clock)
        var expected = 1
        for (status, body) in [(500, "oops"), (200, "not json"), (200, #"{"keys":"nope"}"#), (200, "[]"), (404, "{}")] {
            auth.fail(status: status, body: body)
            clock.advance(31)
            let unknown = Mint.token(TestKeys.otherEd25519, kid: "ed-9", claims: Mint.claims(at: clock.now()))
            expectRejected(verifier, unknown, "unknown token signing key")
            expected += 1
            #expect(auth.requests == expected)
            #expect(try verifier.verify(Mint.token(TestKeys.ed25519, kid: "ed-1", claims: Mint.claims(at: clock.now())))
                .subject == "user_alice")
        }
        // Stale keys are still used while the auth server stays unreachable.
        auth.stop()
        clock.advance(4000)
        #expect(try verifier.verify(Mint.token(TestKeys.p256, kid: "ec-1", claims: Mint.claims(at: clock.now())))
            .subject == "user_alice")
        // A valid but empty set is an answer, not a failure: it replaces the keys.
        let empty = try FakeAuthServer(serving: [])
        defer { empty.stop() }
        let clock2 = ManualClock()
        let second = try makeVerifier(empty, clock: clock2)
        expectRejected(second, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: Mint.claims(at: clock2.now())),
                       "unknown token signing key")
    }

    @Test func refreshNowFetchesImmediately() throws {
        let auth = try FakeAuthServer(serving: [JWKSFixture.jwk(TestKeys.ed25519, kid: "ed-1")])
        defer { auth.stop() }
        let clock = ManualClock()
        let verifier = try makeVerifier(auth, clock: clock)
        auth.serve([JWKSFixture.jwk(TestKeys.nextEd25519, kid: "ed-2")])
        verifier.refreshNow()
        #expect(auth.requests == 2)
        #expect(try verifier.verify(Mint.token(TestKeys.nextEd25519, kid: "ed-2", claims: Mint.claims(at: clock.now())))
            .subject == "user_alice")
        expectRejected(verifier, Mint.token(TestKeys.ed25519, kid: "ed-1", claims: Mint.claims(at: clock.now())),
                       "unknown token signing key")
        #expect(auth.requests == 2)
    }

    @Test func jwksFileSourceIsReadAtStartAndRereadOnUnknownKid() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jwks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("jwks.json").path
        func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic) }

        try write(JWKSFixture.document([JWKSFixture.jwk(TestKeys.ed25519, kid: "ed-1")]))
        let clock = ManualClock()
        let configuration = AuthCoreConfiguration(
            jwksFile: path, issuer: FakeAuthServer.issuer, audience: FakeAuthServer.audience)
        let verifier = try SessionTokenVerifier(configuration: configuration, own: nil, clock: clock)
        #expect(try verifier.verify(Mint.token(TestKeys.ed25519, kid: "ed-1", claims: Mint.claims(at: clock.now())))
            .subject == "user_alice")

        try write(JWKSFixture.document([
            JWKSFixture.jwk(TestKeys.ed25519, kid: "ed-1"), JWKSFixture.jwk(TestKeys.rsa, kid: "rsa-2"),
        ]))
        let rotated = Mint.token(TestKeys.rsa, kid: "rsa-2", claims: Mint.claims(at: clock.now(), subject: "user_bob"))
        expectRejected(verifier, rotated, "unknown token signing key")
        clock.advance(31)
        #expect(try verifier.verify(rotated).subject == "user_bob")

        // A broken file later keeps the keys read before.
        try write(Array("garbage".utf8))
        clock.advance(31)
        expectRejected(verifier, Mint.token(TestKeys.p256, kid: "ec-9", claims: Mint.claims(at: clock.now())),
                       "unknown token signing key")
        #expect(try verifier.verify(rotated).subject == "user_bob")

        // A broken file at start is a configuration error.
        #expect(throws: SessionTokenConfigurationError.self) {
            _ = try SessionTokenVerifier(configuration: configuration, own: nil, clock: clock)
        }
    }

    @Test func fileAndURLKeysAreUsedTogether() throws {
        let auth = try FakeAuthServer(serving: [JWKSFixture.jwk(TestKeys.p256, kid: "ec-1")])
        defer { auth.stop() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jwks-\(UUID().uuidString).json").path
        try Data(JWKSFixture.document([JWKSFixture.jwk(TestKeys.ed25519, kid: "ed-1")]))
            .write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = ManualClock()
        let verifier = try SessionTokenVerifier(
            configuration: AuthCoreConfiguration(
                jwksURL: auth.jwksURL, jwksFile: path, issuer: FakeAuthServer.issuer, audience: FakeAuthServer.audience),
            own: nil, clock: clock)
        #expect(try verifier.verify(Mint.token(TestKeys.ed25519, kid: "ed-1", claims: Mint.claims(at: clock.now())))
            .subject == "user_alice")
        #expect(try verifier.verify(Mint.token(TestKeys.p256, kid: "ec-1", claims: Mint.claims(at: clock.now())))
            .subject == "user_alice")
    }
}
