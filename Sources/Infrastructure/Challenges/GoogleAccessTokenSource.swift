import CurlClient
import Foundation
import LibCrypto
import Synchronization
import VerifyCore

/// OAuth 2.0 access tokens for a service account (RFC 7523 JWT bearer grant, as Google's
/// "OAuth 2.0 for Server to Server Applications" describes it): an RS256 assertion with `iss` =
/// the account's email, `scope`, `aud` = the token endpoint, `iat` and `exp`, posted to the
/// token endpoint; the access token is cached until a minute before it expires.
///
/// Fetches are single-flight (`fetching` is held across the request): when the cached token runs
/// out, one caller fetches and the others wait for it instead of each asking Google.
public final class GoogleAccessTokenSource: Sendable {
    /// The Play Integrity API's scope.
    public static let playIntegrityScope = "https://www.googleapis.com/auth/playintegrity"
    /// Lifetime asked for the assertion (Google allows at most an hour).
    static let assertionLifetime: TimeInterval = 3600
    /// A token is renewed this long before its expiry.
    static let renewalMargin: TimeInterval = 60
    /// Longest access token accepted from the endpoint.
    static let maxAccessTokenBytes = 4096

    private let account: GoogleServiceAccount
    private let scope: String
    private let http: HTTPClient
    private let clock: any Clock
    private let cached = Mutex<(token: String, renewAt: Date)?>(nil)
    /// Held while a token is fetched (single flight).
    private let fetching = Mutex<Void>(())

    public init(account: GoogleServiceAccount, scope: String, http: HTTPClient, clock: any Clock) {
        self.account = account
        self.scope = scope
        self.http = http
        self.clock = clock
    }

    /// A valid access token, from the cache or fetched now.
    /// - Throws: ``AccessTokenUnavailable`` when the endpoint cannot be reached or refuses.
    func token() throws -> String {
        if let token = fresh() { return token }
        return try fetching.withLock { _ in
            if let token = fresh() { return token }
            let (token, lifetime) = try fetch()
            let now = clock.now()
            // A short-lived token is renewed half-way through instead.
            let renewAt = now.addingTimeInterval(lifetime > 2 * Self.renewalMargin ? lifetime - Self.renewalMargin : lifetime / 2)
            cached.withLock { $0 = (token, renewAt) }
            return token
        }
    }

    /// Forgets the cached token (Google refused it: revoked or rotated early).
    func invalidate() {
        cached.withLock { $0 = nil }
    }

    private func fresh() -> String? {
        let now = clock.now()
        return cached.withLock { entry in
            guard let entry, now < entry.renewAt else { return nil }
            return entry.token
        }
    }

    private func fetch() throws -> (String, TimeInterval) {
        let assertion: String
        do { assertion = try signedAssertion(at: clock.now()) } catch { throw AccessTokenUnavailable() }
        let request = HTTPClientRequest.form(
            url: account.tokenURI,
            fields: [("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion)],
            headers: [(name: "Accept", value: "application/json")])
        guard let response = try? http.send(request), response.isSuccess,
            let body = try? JSONValue.parse(response.body),
            let token = body["access_token"]?.stringValue, !token.isEmpty, token.utf8.count <= Self.maxAccessTokenBytes,
            token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { throw AccessTokenUnavailable() }
        let lifetime = body["expires_in"]?.intValue.map { TimeInterval(max(0, min($0, 86_400))) } ?? 300
        return (token, lifetime)
    }

    /// `base64url(header).base64url(claims).base64url(RS256 signature)`.
    func signedAssertion(at now: Date) throws -> String {
        let issuedAt = Int64(now.timeIntervalSince1970)
        var header: [JSONMember] = [JSONMember("alg", "RS256"), JSONMember("typ", "JWT")]
        if let keyID = account.keyID { header.append(JSONMember("kid", .string(keyID))) }
        let claims = JSONValue.object([
            JSONMember("iss", .string(account.clientEmail)), JSONMember("scope", .string(scope)),
            JSONMember("aud", .string(account.tokenURI)), JSONMember("iat", .int(issuedAt)),
            JSONMember("exp", .int(issuedAt + Int64(Self.assertionLifetime))),
        ])
        let input = Base64URL.encode(JSONValue.object(header).encoded()) + "." + Base64URL.encode(claims.encoded())
        return input + "." + Base64URL.encode(try account.key.sign(Array(input.utf8)))
    }
}

/// The token endpoint could not be reached or refused the assertion.
struct AccessTokenUnavailable: Error {}
