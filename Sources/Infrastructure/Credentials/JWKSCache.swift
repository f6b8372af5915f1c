import Foundation
import CurlClient
import VerifyCore

/// The main auth server's public keys from a JWKS URL and/or a JWKS file, cached.
///
/// Refreshes (file reread and URL fetched together):
/// - when a token names a `kid` the cache does not hold, at most once per `minRefresh` seconds,
///   so a flood of tokens with random `kid`s costs the auth server one request per interval;
/// - when the keys are older than `maxAge` (also rate-limited by `minRefresh`).
///
/// A failed refresh keeps the keys already held (the auth server being down must not lock every
/// user out); a successful one replaces the keys of that source. Fetches are single-flight: one
/// at a time; meanwhile callers whose `kid` is cached use the cache, and callers waiting for an
/// unknown `kid` wait for the fetch in flight (bounded by the request timeout) instead of
/// starting another. Blocking: meant for HTTP worker threads, never the cooperative pool.
final class JWKSCache: @unchecked Sendable {
    // @unchecked: the key lists and refresh bookkeeping are only touched with `condition` held.
    /// Timeouts of one JWKS request.
    static let requestTimeoutSeconds = 5.0
    static let connectTimeoutSeconds = 3.0

    private let url: String?
    private let file: String?
    private let http: HTTPClient
    private let clock: any Clock
    private let minRefresh: TimeInterval
    private let maxAge: TimeInterval

    /// Guards every `var` below; `fetching` changes are broadcast.
    private let condition = NSCondition()
    private var fileKeys: [JWKSKey] = []
    private var urlKeys: [JWKSKey] = []
    /// When the last refresh started (success or not): the rate limit.
    private var lastAttempt: Date?
    /// When every configured source last loaded successfully: the age limit.
    private var loadedAt: Date?
    private var fetching = false

    /// Reads the file (which must hold a JWK set) and tries the URL once; an unreachable URL is
    /// retried on later lookups.
    /// - Throws: ``SessionTokenConfigurationError`` when the file cannot be read or parsed.
    init(
        url: String?, file: String?, http: HTTPClient, clock: any Clock, minRefreshSeconds: Int, maxAgeSeconds: Int
    ) throws {
        self.url = url
        self.file = file
        self.http = http
        self.clock = clock
        self.minRefresh = TimeInterval(minRefreshSeconds)
        self.maxAge = TimeInterval(maxAgeSeconds)
        let started = clock.now()
        if let file {
            guard let keys = Self.read(file: file) else {
                throw SessionTokenConfigurationError("the JWKS file cannot be read or is not a JWK set")
            }
            fileKeys = keys
        }
        var complete = true
        if let url {
            if let keys = Self.fetch(url: url, http: http) {
                urlKeys = keys
            } else {
                complete = false
            }
        }
        lastAttempt = started
        loadedAt = complete ? clock.now() : nil
    }

    /// The cached keys whose `kid` equals `keyID` (nil: keys without `kid`), refreshing first
    /// when none is cached or the cache is too old and the rate limit allows it.
    func keys(keyID: String?) -> [JWKSKey] {
        condition.lock()
        defer { condition.unlock() }
        let now = clock.now()
        let cached = lookup(keyID)
        if !cached.isEmpty && !isStale(at: now) { return cached }
        if fetching {
            // Someone is refreshing: a known kid uses the cache, an unknown one waits for the result.
            if cached.isEmpty { waitForFetch() }
            return lookup(keyID)
        }
        guard mayAttempt(at: now) else { return cached }
        refreshLocked(at: now)
        return lookup(keyID)
    }

    /// Rereads the file and refetches the URL now, ignoring the rate limit; if a refresh is
    /// already running, waits for it instead.
    func refreshNow() {
        condition.lock()
        defer { condition.unlock() }
        if fetching {
            waitForFetch()
        } else {
            refreshLocked(at: clock.now())
        }
    }

    /// Number of keys held (file and URL), for diagnostics.
    var keyCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return fileKeys.count + urlKeys.count
    }

    // MARK: - Locked helpers (call with `condition` locked)

    private func lookup(_ keyID: String?) -> [JWKSKey] {
        (fileKeys + urlKeys).filter { $0.keyID == keyID }
    }

    private func isStale(at now: Date) -> Bool {
        guard let loadedAt else { return true }
        let age = now.timeIntervalSince(loadedAt)
        return age >= maxAge || age < 0
    }

    private func mayAttempt(at now: Date) -> Bool {
        guard let lastAttempt else { return true }
        let elapsed = now.timeIntervalSince(lastAttempt)
        // A clock stepped backwards must not block refreshes until it catches up.
        return elapsed >= minRefresh || elapsed < 0
    }

    private func waitForFetch() {
        let deadline = Date().addingTimeInterval(Self.requestTimeoutSeconds + 1)
        while fetching {
            if !condition.wait(until: deadline) { break }
        }
    }

    /// Marks a fetch in flight, loads with the lock released, then installs the result.
    private func refreshLocked(at now: Date) {
        fetching = true
        lastAttempt = now
        condition.unlock()
        let fromFile = file.flatMap(Self.read(file:))
        let fromURL = url.flatMap { Self.fetch(url: $0, http: http) }
        condition.lock()
        if let fromFile { fileKeys = fromFile }
        if let fromURL { urlKeys = fromURL }
        if (file == nil || fromFile != nil) && (url == nil || fromURL != nil) { loadedAt = clock.now() }
        fetching = false
        condition.broadcast()
    }

    // MARK: - Sources

    private static func read(file path: String) -> [JWKSKey]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: JWKSDocument.maxDocumentBytes + 1) else { return nil }
        return JWKSDocument.parse([UInt8](data))
    }

    private static func fetch(url: String, http: HTTPClient) -> [JWKSKey]? {
        let request = HTTPClientRequest(
            url: url, headers: [(name: "Accept", value: "application/jwk-set+json, application/json")],
            timeoutSeconds: requestTimeoutSeconds, connectTimeoutSeconds: connectTimeoutSeconds)
        guard let response = try? http.send(request), response.isSuccess else { return nil }
        return JWKSDocument.parse(response.body)
    }
}
