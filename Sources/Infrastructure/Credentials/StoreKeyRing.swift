import LibCrypto
import Foundation
import VerifyCore

/// The signing key in use plus every key the store still publishes (rotated keys keep verifying
/// until the last credential they signed expires). Re-reads the store every `refreshInterval`,
/// so replicas and a rotation by the CLI are picked up without a restart; when the store's
/// active key is a new one that `reload` can provide (the development key file), signing
/// switches to it too.
public final class StoreKeyRing: KeyRing, @unchecked Sendable {
    // @unchecked: `signer` and the published keys are only touched with `lock` held; `refreshing` lets one caller refresh at a time.
    private let store: any SigningKeyStore
    private let clock: any Clock
    private let refreshInterval: TimeInterval
    private let reload: @Sendable () -> JWTSigner?
    private let credentialLifetime: TimeInterval
    private let lock = NSLock()
    /// One refresh at a time: a slower one finishing last must not restore an older view.
    private let refreshing = NSLock()
    private var signer: JWTSigner
    /// The store says this replica's key was retired and no replacement could be loaded: it
    /// neither signs nor publishes that key until its key file holds the active one.
    private var retired = false
    private var published: [JSONValue] = []
    private var refreshedAt = Date.distantPast
    /// A new active key this ring has seen but does not sign with yet, and since when.
    private var newActive: (kid: String, since: Date)?
    /// When an unknown key last forced a refresh (at most one a second, whatever tokens arrive).
    private var forcedAt = Date.distantPast
    public static let forcedRefreshInterval: TimeInterval = 1

    public init(
        active: JWTSigner, store: any SigningKeyStore, clock: any Clock, refreshInterval: TimeInterval = 30,
        credentialLifetime: TimeInterval = 300, reload: @escaping @Sendable () -> JWTSigner? = { nil }
    ) throws {
        self.credentialLifetime = credentialLifetime
        self.signer = active
        self.store = store
        self.clock = clock
        self.refreshInterval = refreshInterval
        self.reload = reload
        try refresh(now: clock.now())
    }

    public func currentSigner() throws -> any CredentialSigner {
        refreshIfDue()
        lock.lock()
        defer { lock.unlock() }
        if retired { throw Self.retiredKey }
        return signer
    }

    /// The refusal while this replica's key is retired and no replacement was loaded.
    public static let retiredKey = VerifyError(
        .unavailable, "this replica's signing key was retired; install the active key in its key file (phone-verify keys list)")

    /// True while this replica's key is retired and no replacement was loaded (not ready). Refreshes
    /// when due, so a replica that gets no traffic while not ready still notices its fixed key file.
    public var signingKeyRetired: Bool {
        refreshIfDue()
        lock.lock()
        defer { lock.unlock() }
        return retired
    }

    public func publicJWKs() -> [JSONValue] {
        refreshIfDue()
        lock.lock()
        defer { lock.unlock() }
        return published
    }

    public func refreshForUnknownKey() {
        let now = clock.now()
        lock.lock()
        let allowed = now.timeIntervalSince(forcedAt) >= Self.forcedRefreshInterval
        if allowed { forcedAt = now }
        lock.unlock()
        if allowed { refreshUnlessRunning(now: now) }
    }

    private func refreshIfDue() {
        let now = clock.now()
        lock.lock()
        let due = now.timeIntervalSince(refreshedAt) >= refreshInterval
        if due { refreshedAt = now }  // one refresher at a time; others keep the cached view
        lock.unlock()
        if due { refreshUnlessRunning(now: now) }
    }

    /// Request threads never queue behind a refresh (a store that is down can take long to
    /// answer): when one is running, they keep the cached view.
    private func refreshUnlessRunning(now: Date) {
        guard refreshing.try() else { return }
        defer { refreshing.unlock() }
        try? rereadStore(now: now)
    }

    /// Re-reads the published keys, and switches signer to a new active key that `reload` can
    /// provide once this ring has seen that key for a whole refresh interval: by then every replica
    /// has reread the store and publishes it, so no verifier meets a credential whose key the
    /// replica it asks does not publish yet.
    public func refresh(now: Date) throws {
        refreshing.lock()
        defer { refreshing.unlock() }
        try rereadStore(now: now)
    }

    /// `refresh` under the `refreshing` lock.
    private func rereadStore(now: Date) throws {
        let records = try store.signingKeys()
        var current = { self.lock.lock(); defer { self.lock.unlock() }; return self.signer }()
        if let active = records.first(where: { $0.status == .active }), active.kid != current.keyID,
            records.first(where: { $0.kid == current.keyID })?.status == .retired,
            let candidate = reload(), candidate.keyID == active.kid
        {
            // The key this replica signs with was retired (compromised): no waiting.
            current = candidate
        }
        if let active = records.first(where: { $0.status == .active }), active.kid != current.keyID {
            let since: Date = {
                self.lock.lock()
                defer { self.lock.unlock() }
                if newActive?.kid != active.kid { newActive = (active.kid, now) }
                return newActive!.since
            }()
            if now.timeIntervalSince(since) >= refreshInterval, let candidate = reload(), candidate.keyID == active.kid {
                // The credentials signed with the old key until now must stay verifiable.
                try store.keepPublished(kid: current.keyID, until: now.addingTimeInterval(credentialLifetime))
                current = candidate
            }
        }
        if let mine = records.first(where: { $0.kid == current.keyID }), mine.status == .verifying {
            // Another replica rotated while this one still signs with the old key: keep the old
            // key published until this replica's credentials have expired too.
            try store.keepPublished(kid: current.keyID, until: now.addingTimeInterval(credentialLifetime + refreshInterval))
        }
        let isRetired = records.first(where: { $0.kid == current.keyID })?.status == .retired
        var jwks = isRetired ? [] : [try current.publicJWK()]
        for record in records where record.kid != current.keyID && record.isPublished(at: now) {
            if let value = try? JSONValue.parse(Array(record.publicJWK.utf8)) { jwks.append(value) }
        }
        lock.lock()
        signer = current
        retired = isRetired
        published = jwks
        refreshedAt = now
        lock.unlock()
    }

    /// The store record for a signer.
    public static func record(for signer: JWTSigner, at now: Date) throws -> SigningKeyRecord {
        SigningKeyRecord(
            kid: signer.keyID, algorithm: signer.algorithm, publicJWK: try signer.publicJWK().encodedString(), createdAt: now,
            status: .active)
    }
}
