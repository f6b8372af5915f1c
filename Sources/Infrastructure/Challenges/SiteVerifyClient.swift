import CurlClient
import Foundation
import VerifyCore

/// One vendor's siteverify endpoint (Turnstile, hCaptcha, reCAPTCHA v2/v3): a form POST of
/// `secret`, `response`, `remoteip` (when known) and the vendor's own fields, answered with
/// `{"success", "error-codes", …}`. The vendors differ only in their URL, their extra fields and
/// the error codes that mean our side or theirs failed rather than the token.
struct SiteVerifyClient: Sendable {
    let provider: String
    let url: String
    let secret: String
    /// Codes that say our configuration is wrong or the vendor failed, not the token: 503, not 403.
    let vendorSideCodes: Set<String>
    let call: VendorCall

    /// The vendor's verdict on `token`; throws `unavailable` when a refusal is not the token's fault.
    func verdict(token: String, clientIP: String, extra: [(String, String)] = []) throws -> VendorVerdict {
        var fields = [("secret", secret), ("response", token)]
        if !clientIP.isEmpty { fields.append(("remoteip", clientIP)) }
        fields.append(contentsOf: extra)
        let verdict = try VendorVerdict.siteVerify(call.send(.form(url: url, fields: fields), provider: provider), provider: provider)
        if !verdict.valid, verdict.reasons.contains(where: vendorSideCodes.contains) { throw ChallengeVendorError.unavailable(provider) }
        return verdict
    }
}
