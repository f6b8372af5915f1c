import API
import Encoding
import Foundation
import HTTPMessages
import VerifyCore

/// Signs and checks the console's session cookie, stateless: the cookie is
/// `PAYLOAD.MAC` (``ConsoleSession``, HMAC-SHA-256 under the console key), so any replica
/// sharing the code secret accepts it and there is no session table to lose or fill. The key
/// that signed in is named by a keyed fingerprint and looked up in the configured keys on every
/// request: its scopes are today's, and a key removed from the configuration ends its sessions.
/// A session ends after `idleTimeout` without a request (each answer renews the cookie) and
/// `maxLifetime` after sign-in however busy it is.
public struct ConsoleSessions: APISessionResolver {
    /// The header state-changing JSON calls carry the CSRF token in.
    public static let csrfHeader = "X-CSRF-Token"
    /// The form field state-changing forms carry it in.
    static let csrfField = "csrf_token"

    let keyring: APIKeyring
    let crypto: any ConsoleCrypto
    let clock: any Clock
    let random: any RandomSource
    public let idleTimeout: Int
    public let maxLifetime: Int
    /// Always `Secure` and `__Host-`, even for a loopback peer (``ConsoleCookie``).
    public let secureCookie: Bool
    /// Signed-out sessions, stored until they would have expired (every replica sees them).
    let revocations: SessionRevocations?
    /// Fingerprint → scopes and the key's public id, computed once from the configured keys.
    let keys: [String: (scopes: Set<APIScope>, keyID: String)]

    public init(
        keyring: APIKeyring, crypto: any ConsoleCrypto, clock: any Clock, random: any RandomSource, idleTimeout: Int = 900,
        maxLifetime: Int = 43_200, secureCookie: Bool = false, revocations: SessionRevocations? = nil
    ) {
        self.secureCookie = secureCookie
        self.revocations = revocations
        var keyring = keyring
        keyring.sessions = nil  // sign-in takes keys only
        self.keyring = keyring
        self.crypto = crypto
        self.clock = clock
        self.random = random
        self.idleTimeout = idleTimeout
        self.maxLifetime = maxLifetime
        var ids: [String: String] = [:]
        let scopes = keyring.fingerprints { key in
            let fingerprint = Self.fingerprint(key, crypto: crypto)
            ids[fingerprint] = crypto.keyID(key)
            return fingerprint
        }
        keys = scopes.reduce(into: [:]) { $0[$1.key] = ($1.value, ids[$1.key] ?? "") }
    }

    /// A valid session: who signed in (the key's public id) and what it may do now.
    public struct Signed: Sendable {
        let session: ConsoleSession
        public let scopes: Set<APIScope>
        public let keyID: String
    }

    /// What a request's cookie amounts to.
    enum Lookup {
        case none, invalid, expired
        case valid(Signed)
    }

    // MARK: signing in

    /// The outcome of a sign-in: the new session, or why not (without saying whether the key
    /// exists: unknown and wrong keys take the same path).
    enum SignIn {
        case signedIn(Signed)
        case refused
        case lacksScope(keyID: String)
    }

    /// Checks `apiKey` against every configured key in constant time and, when it has `read`,
    /// opens a new session with a fresh random id (never one the browser brought: no fixation).
    func signIn(apiKey: String) -> SignIn {
        let bytes = Array(apiKey.utf8)
        let fingerprint = Self.fingerprint(bytes, crypto: crypto)  // computed for every attempt
        let keyID = crypto.keyID(bytes)
        guard let scopes = keyring.scopes(of: apiKey), !apiKey.isEmpty else { return .refused }
        guard scopes.contains(.read) else { return .lacksScope(keyID: keyID) }
        let now = Int64(clock.now().timeIntervalSince1970)
        let session = ConsoleSession(id: Hex.encode(random.bytes(16)), keyFingerprint: fingerprint, issuedAt: now, lastSeen: now)
        return .signedIn(Signed(session: session, scopes: scopes, keyID: keyID))
    }

    // MARK: cookies

    /// The signed cookie value of `session`.
    func cookieValue(_ session: ConsoleSession) -> String {
        let payload = session.payload
        return payload + "." + Base64URL.encode(crypto.mac(Array(("console-cookie v1\u{0}" + payload).utf8)))
    }

    /// `session` used now: the same session with its idle clock restarted.
    func renewed(_ signed: Signed) -> ConsoleSession {
        let s = signed.session
        return ConsoleSession(
            id: s.id, keyFingerprint: s.keyFingerprint, issuedAt: s.issuedAt, lastSeen: max(s.lastSeen, Int64(clock.now().timeIntervalSince1970)))
    }

    /// The session `request`'s cookie carries, checked: MAC, shape, idle and total age, key.
    func lookup(_ request: HTTPRequest) -> Lookup {
        let values = ConsoleCookie.values(named: ConsoleCookie.name(for: request, forceSecure: secureCookie), in: request)
        guard !values.isEmpty else { return .none }
        // Two cookies of our name: one was planted (a sibling domain, a script); trust neither.
        guard values.count == 1, let dot = values[0].lastIndex(of: ".") else { return .invalid }
        let payload = String(values[0][..<dot])
        guard let mac = Base64URL.decode(String(values[0][values[0].index(after: dot)...])),
            APIKeyring.same(mac, crypto.mac(Array(("console-cookie v1\u{0}" + payload).utf8))),
            let session = ConsoleSession(payload: payload)
        else { return .invalid }
        let now = Int64(clock.now().timeIntervalSince1970)
        guard now - session.lastSeen < Int64(idleTimeout), now - session.issuedAt < Int64(maxLifetime),
            session.issuedAt <= now + 60
        else { return .expired }
        guard let key = keys[session.keyFingerprint] else { return .expired }  // key removed
        // A store that cannot answer ends the session too: a signed-out cookie must not work.
        if let revocations, (try? revocations.isRevoked(revocationKey(session))) != false { return .expired }
        return .valid(Signed(session: session, scopes: key.scopes, keyID: key.keyID))
    }

    /// The `Set-Cookie` header carrying `value` (empty with `maxAge` 0: deletes the cookie).
    func cookieHeader(_ value: String, for request: HTTPRequest, maxAge: Int) -> String {
        ConsoleCookie.header(value, for: request, maxAge: maxAge, forceSecure: secureCookie)
    }

    // MARK: signing out

    /// Ends `signed` on every replica: its revocation is stored until the session would have
    /// expired anyway (its idle timeout or total lifetime, whichever comes first).
    func revoke(_ signed: Signed) throws {
        let s = signed.session
        let until = min(max(s.lastSeen, Int64(clock.now().timeIntervalSince1970)) + Int64(idleTimeout), s.issuedAt + Int64(maxLifetime))
        try revocations?.revoke(revocationKey(s), until: Date(timeIntervalSince1970: TimeInterval(until)))
    }

    /// What a revocation is stored under: a keyed hash of the session id, never the id.
    func revocationKey(_ session: ConsoleSession) -> String {
        String(Hex.encode(crypto.mac(Array(("console-revoked v1\u{0}" + session.id).utf8))).prefix(32))
    }

    // MARK: CSRF

    /// The session's CSRF token: derived from its id, so it is the same on every page of the
    /// session and needs no storage, and no other session's token fits.
    func csrfToken(_ signed: Signed) -> String {
        Base64URL.encode(crypto.mac(Array(("console-csrf v1\u{0}" + signed.session.id).utf8)))
    }

    /// Whether a state-changing request may act for `signed`: its token (header, else form
    /// field) matches in constant time, and its `Origin`, when sent, is this server.
    func passesCSRF(_ request: HTTPRequest, _ signed: Signed, formToken: String? = nil) -> Bool {
        guard ConsoleCookie.sameOrigin(request) else { return false }
        let presented = request.headers[Self.csrfHeader] ?? formToken ?? ""
        return APIKeyring.same(Array(presented.utf8), Array(csrfToken(signed).utf8))
    }

    // MARK: APISessionResolver

    /// The admin routes' view: no cookie → nil (the key path answers 401); a bad or expired one
    /// → 401; a state-changing method without the CSRF token or from another origin → 403.
    public func scopes(of request: HTTPRequest) throws -> Set<APIScope>? {
        switch lookup(request) {
        case .none: return nil
        case .invalid, .expired:
            throw VerifyError(.unauthenticated, "the console session has expired; sign in again")
        case .valid(let signed):
            if !["GET", "HEAD"].contains(request.method), !passesCSRF(request, signed) {
                throw VerifyError(.forbidden, "the CSRF token is missing or wrong (header \(Self.csrfHeader))")
            }
            return signed.scopes
        }
    }

    static func fingerprint(_ key: [UInt8], crypto: any ConsoleCrypto) -> String {
        String(Hex.encode(crypto.mac(Array("console-key v1\u{0}".utf8) + key)).prefix(32))
    }
}
