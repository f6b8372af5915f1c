import Credentials
import LibCrypto
import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// Another replica rotates the signing key: a credential it signs names a key this replica's ring
/// does not publish yet (it rereads every 30 s). Verifying it forces one reread, rate-limited.
@Suite struct KeyRingRefreshTests {
    /// Key metadata shared by the "replicas", counting reads.
    final class KeyTable: SigningKeyStore, @unchecked Sendable {
        private let lock = NSLock()
        private var records: [SigningKeyRecord] = []
        private(set) var reads = 0

        func signingKeys() throws -> [SigningKeyRecord] {
            lock.lock()
            defer { lock.unlock() }
            reads += 1
            return records
        }
        func activate(_ record: SigningKeyRecord, now: Date, credentialLifetime: TimeInterval) throws {
            lock.lock()
            defer { lock.unlock() }
            for i in records.indices where records[i].status == .active {
                records[i].status = .verifying
                records[i].retireAfter = now.addingTimeInterval(credentialLifetime)
            }
            records.append(record)
        }
        func retire(kid: String) throws -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard let i = records.firstIndex(where: { $0.kid == kid && $0.status != .active }) else { return false }
            records[i].status = .retired
            return true
        }
        private(set) var kept: [String: Date] = [:]
        func keepPublished(kid: String, until: Date) throws {
            lock.lock()
            defer { lock.unlock() }
            kept[kid] = max(kept[kid] ?? .distantPast, until)
        }
        var keptUntil: [String: Date] {
            lock.lock()
            defer { lock.unlock() }
            return kept
        }
        var readCount: Int {
            lock.lock()
            defer { lock.unlock() }
            return reads
        }
    }

    static let issuer = "https://verify.example.test"

    @Test func aKeyActivatedByAnotherReplicaVerifiesAtOnce() throws {
        let clock = ManualClock()
        let table = KeyTable()
        let old = try JWTSigner(key: TestKeys.own)
        try table.activate(try StoreKeyRing.record(for: old, at: clock.now()), now: clock.now(), credentialLifetime: 300)
        let ring = try StoreKeyRing(active: old, store: table, clock: clock)
        let own = OwnCredentials(issuer: Self.issuer, audience: "main-auth", refresh: { ring.refreshForUnknownKey() }) {
            ring.publicJWKs().map { jwk in
                guard case .object(let members) = jwk else { return [:] }
                return Dictionary(uniqueKeysWithValues: members.compactMap { m in m.value.stringValue.map { (m.key, $0) } })
            }
        }
        let verifier = OwnCredentialVerifier(own: own, clock: clock)

        // The other replica activates a new key and signs with it, a second later.
        clock.advance(1)
        let new = try JWTSigner(key: TestKeys.nextEd25519)
        try table.activate(try StoreKeyRing.record(for: new, at: clock.now()), now: clock.now(), credentialLifetime: 300)
        let other = CredentialIssuer(issuer: Self.issuer, audience: "main-auth", keys: try StaticKeyRing(active: new), random: SeededRandom())
        let now = clock.now()
        let verification = Verification(
            id: "ver_1", phoneNumber: "+14155552671", display: "+1 415-555-2671", region: "US", countryCode: 1, locale: nil,
            purpose: .signIn, codeHash: [], codeLength: 6, maxAttempts: 5, maxSends: 5, createdAt: now,
            expiresAt: now.addingTimeInterval(300), lastSentAt: now, resendAvailableAt: now)
        let token = try other.firstFactor(for: verification, at: now).token
        let reads = table.readCount
        #expect(try verifier.verify(token).claims["vid"] == "ver_1")
        #expect(table.readCount == reads + 1)

        // Made-up key ids force at most one reread a second.
        let forged = Mint.token(TestKeys.otherEd25519, kid: "made-up", claims: ["iss": .string(Self.issuer), "aud": "main-auth", "sub": "x", "exp": .int(Int64(now.timeIntervalSince1970) + 60), "jti": "j"])
        clock.advance(1)
        for _ in 0..<20 {
            #expect(throws: VerifyError(.unauthenticated, "unknown token signing key")) { try verifier.verify(forged) }
        }
        #expect(table.readCount == reads + 2)
    }

    /// A replica switches to a key activated elsewhere only after one refresh interval (so every
    /// replica publishes it by then), and keeps its old key published for what it signed until then.
    @Test func aReplicaSwitchesAfterARefreshIntervalAndKeepsItsOldKeyPublished() throws {
        let clock = ManualClock()
        let table = KeyTable()
        let old = try JWTSigner(key: TestKeys.own)
        let new = try JWTSigner(key: TestKeys.nextEd25519)
        try table.activate(try StoreKeyRing.record(for: old, at: clock.now()), now: clock.now(), credentialLifetime: 300)
        let ring = try StoreKeyRing(active: old, store: table, clock: clock, refreshInterval: 30, credentialLifetime: 300) { new }
        try table.activate(try StoreKeyRing.record(for: new, at: clock.now()), now: clock.now(), credentialLifetime: 300)
        clock.advance(30)
        #expect(try ring.currentSigner().keyID == old.keyID)  // first sight of the new key: not yet
        #expect(ring.publicJWKs().contains { $0["kid"]?.stringValue == new.keyID })  // but published
        clock.advance(30)
        #expect(try ring.currentSigner().keyID == new.keyID)
        #expect(table.keptUntil[old.keyID].map { $0 >= clock.now().addingTimeInterval(300) } == true)
        #expect(ring.publicJWKs().contains { $0["kid"]?.stringValue == old.keyID })
    }

    /// Replica B starts with a new key and signs at once; replica A publishes it as soon as a
    /// verifier asks A for the key set (the JWKS route asks for a reread), not a refresh later.
    @Test func aKeyAnotherReplicaJustActivatedIsPublishedOnTheNextKeySetRequest() throws {
        let clock = ManualClock()
        let table = KeyTable()
        let first = try JWTSigner(key: TestKeys.own)
        try table.activate(try StoreKeyRing.record(for: first, at: clock.now()), now: clock.now(), credentialLifetime: 300)
        let replicaA = try StoreKeyRing(active: first, store: table, clock: clock)
        clock.advance(2)
        let second = try JWTSigner(key: TestKeys.nextEd25519)
        try table.activate(try StoreKeyRing.record(for: second, at: clock.now()), now: clock.now(), credentialLifetime: 300)
        #expect(!replicaA.publicJWKs().contains { $0["kid"]?.stringValue == second.keyID })  // cached
        replicaA.refreshForUnknownKey()
        #expect(replicaA.publicJWKs().contains { $0["kid"]?.stringValue == second.keyID })
    }

    /// The key a replica signs with was retired (compromised): it switches to the active key at
    /// once if its file holds it, without the usual interval.
    @Test func aRetiredSigningKeyIsLeftAtOnce() throws {
        let clock = ManualClock()
        let table = KeyTable()
        let old = try JWTSigner(key: TestKeys.own)
        let new = try JWTSigner(key: TestKeys.nextEd25519)
        try table.activate(try StoreKeyRing.record(for: old, at: clock.now()), now: clock.now(), credentialLifetime: 300)
        let ring = try StoreKeyRing(active: old, store: table, clock: clock) { new }
        try table.activate(try StoreKeyRing.record(for: new, at: clock.now()), now: clock.now(), credentialLifetime: 300)
        #expect(try table.retire(kid: old.keyID))
        try ring.refresh(now: clock.now())
        #expect(try ring.currentSigner().keyID == new.keyID)
        #expect(!ring.publicJWKs().contains { $0["kid"]?.stringValue == old.keyID })
    }

    /// A replica signing with `old` (its key file) after another activated `new` and `old` was
    /// retired; `file` is what its key file holds from now on.
    private func retiredWhileRunning() throws -> (ManualClock, StoreKeyRing, JWTSigner, JWTSigner, Locked<JWTSigner?>) {
        let clock = ManualClock()
        let table = KeyTable()
        let old = try JWTSigner(key: TestKeys.own)
        let new = try JWTSigner(key: TestKeys.nextEd25519)
        let file = Locked<JWTSigner?>(nil)
        try table.activate(try StoreKeyRing.record(for: old, at: clock.now()), now: clock.now(), credentialLifetime: 300)
        let ring = try StoreKeyRing(active: old, store: table, clock: clock) { file.value }
        try table.activate(try StoreKeyRing.record(for: new, at: clock.now()), now: clock.now(), credentialLifetime: 300)
        #expect(try table.retire(kid: old.keyID))
        return (clock, ring, old, new, file)
    }

    /// The key a replica signs with was retired while its file still holds it: the replica stops
    /// signing (503 rather than credentials verifiers refuse) and stops publishing that key, so
    /// its own introspection no longer accepts credentials forged with it; it recovers when its
    /// file holds the active key.
    @Test func aRetiredSigningKeyWithoutReplacementIsNeitherUsedNorPublished() throws {
        let (clock, ring, old, new, file) = try retiredWhileRunning()
        try ring.refresh(now: clock.now())
        let refusal = #expect(throws: VerifyError.self) { try ring.currentSigner() }
        #expect(refusal?.code == .unavailable)
        #expect(ring.signingKeyRetired)
        #expect(!ring.publicJWKs().contains { $0["kid"]?.stringValue == old.keyID })
        #expect(ring.publicJWKs().contains { $0["kid"]?.stringValue == new.keyID })
        file.value = new
        try ring.refresh(now: clock.now())
        #expect(try ring.currentSigner().keyID == new.keyID)
        #expect(!ring.signingKeyRetired)
    }

    /// A replica that is not ready gets no traffic: the readiness probe alone must notice both a
    /// retired key and the fixed key file.
    @Test func readinessAloneNoticesARetiredKeyAndItsReplacement() throws {
        let (clock, ring, _, new, file) = try retiredWhileRunning()
        #expect(!ring.signingKeyRetired)  // not yet reread
        clock.advance(30)
        #expect(ring.signingKeyRetired)
        file.value = new
        clock.advance(30)
        #expect(!ring.signingKeyRetired)
        #expect(try ring.currentSigner().keyID == new.keyID)
    }
}

/// A value shared with a `@Sendable` closure.
private final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
