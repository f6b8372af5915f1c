import CurlClient
import Foundation
import LibCrypto
import VerifyCore

/// Cloudflare Turnstile, verified server-side: a form POST of `secret`, `response`, `remoteip`
/// and `idempotency_key` to siteverify, answered with `{"success", "error-codes", "hostname",
/// "action", "challenge_ts"}` (docs/CHALLENGES.md). Tokens live 300 s and verify once.
public struct TurnstileVerifier: ChallengeVerifier {
    public static let defaultURL = "https://challenges.cloudflare.com/turnstile/v0/siteverify"
    public static let tokenValidity: TimeInterval = 300
    /// Codes that say our side is wrong or Cloudflare failed, not the token: 503, not 403.
    static let vendorSideCodes: Set<String> = ["missing-input-secret", "invalid-input-secret", "internal-error"]

    public let provider = "turnstile"
    let siteKey: String
    let rules: SiteVerifyRules
    let client: SiteVerifyClient

    public init(
        siteKey: String, secret: String, url: String = Self.defaultURL, hostnames: [String] = [], action: String? = nil,
        http: HTTPClient, timeout: Double? = nil
    ) {
        self.siteKey = siteKey
        rules = SiteVerifyRules(hostnames: hostnames, action: action, tokenValidity: Self.tokenValidity)
        client = SiteVerifyClient(
            provider: provider, url: url, secret: secret, vendorSideCodes: Self.vendorSideCodes, call: VendorCall(http: http, timeout: timeout))
    }

    public var publicParameters: [String: String] {
        var parameters = ["site_key": siteKey]
        if let action = rules.action { parameters["action"] = action }
        return parameters
    }

    public func verify(_ submission: ChallengeSubmission, context: ChallengeContext) throws -> ChallengeProof {
        let token = try SiteVerifyRules.token(of: submission)
        // The same token always carries the same key, so a client retrying after our call timed
        // out gets Cloudflare's first answer instead of `timeout-or-duplicate`; the ledger (not
        // Cloudflare) then refuses a second use.
        let verdict = try client.verdict(token: token, clientIP: context.clientIP, extra: [("idempotency_key", Self.idempotencyKey(for: token))])
        guard verdict.valid else { throw verdict.refusal(provider: provider) }
        try rules.check(verdict, provider: provider, now: context.now)
        return rules.proof(provider: provider, token: token, now: context.now)
    }

    /// A UUID (version 4 layout) derived from the token's SHA-256, apart from the replay key.
    static func idempotencyKey(for token: String) -> String {
        var bytes = Array(Digest.sha256(Array(("turnstile-idempotency:" + token).utf8)).prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Hex.encode(bytes)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.utf8.dropFirst(range.lowerBound).prefix(range.count).map { Character(Unicode.Scalar($0)) })
        }
        return parts.joined(separator: "-")
    }
}
