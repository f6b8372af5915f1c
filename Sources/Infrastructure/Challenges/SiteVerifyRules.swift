import Foundation
import LibCrypto
import VerifyCore

/// What a captcha vendor's verdict must show beyond "valid" (docs/CHALLENGES.md): where the
/// token was made, for which action, with which score, and how long ago. Shared by Turnstile,
/// hCaptcha and reCAPTCHA; each vendor's verifier reads its answer and hands the parts here.
public struct SiteVerifyRules: Sendable {
    /// Longest token sent to a vendor: Turnstile documents 2048 characters, and a bigger one is
    /// refused before any vendor call (it would cost a request and a log line for nothing).
    public static let maximumTokenLength = 2048

    /// Lower-cased host names the token may have been made on; empty: any.
    public let hostnames: [String]
    /// The action the widget must have been run with; nil: not checked.
    public let action: String?
    /// reCAPTCHA's score (1.0: very likely a person) must be at least this; nil: not checked.
    public let minimumScore: Double?
    /// hCaptcha Enterprise's risk score (1.0: very likely a bot) must be at most this; nil: not
    /// checked.
    public let maximumRiskScore: Double?
    /// How long the vendor says a token lives: older challenges fail, and a used token is
    /// remembered this long.
    public let tokenValidity: TimeInterval

    public init(
        hostnames: [String] = [], action: String? = nil, minimumScore: Double? = nil, maximumRiskScore: Double? = nil,
        tokenValidity: TimeInterval
    ) {
        self.hostnames = hostnames.map { $0.lowercased() }
        self.action = action
        self.minimumScore = minimumScore
        self.maximumRiskScore = maximumRiskScore
        self.tokenValidity = tokenValidity
    }

    /// The token, once it is known to be worth a vendor call: present and at most 2048 characters.
    public static func token(of submission: ChallengeSubmission) throws -> String {
        let token = submission.token
        guard !token.isEmpty else { throw ChallengeVendorError.malformed("token", "must not be empty") }
        guard token.utf8.count <= maximumTokenLength else {
            throw ChallengeVendorError.malformed("token", "must be at most \(maximumTokenLength) characters")
        }
        return token
    }

    /// Applies every configured rule to a verdict the vendor called valid.
    func check(_ verdict: VendorVerdict, provider: String, now: Date) throws {
        if !hostnames.isEmpty {
            guard let hostname = verdict.hostname?.lowercased(), hostnames.contains(hostname) else {
                throw ChallengeVendorError.failed(provider, "the token was made on a host name this service does not accept")
            }
        }
        if let action, verdict.action != action {
            throw ChallengeVendorError.failed(provider, "the token was made for another action than \"\(action)\"")
        }
        if let minimumScore {
            guard let score = verdict.score, score >= minimumScore else {
                throw ChallengeVendorError.failed(provider, "the score is below \(minimumScore)")
            }
        }
        if let maximumRiskScore {
            guard let score = verdict.score, score <= maximumRiskScore else {
                throw ChallengeVendorError.failed(provider, "the risk score is above \(maximumRiskScore) (or missing)")
            }
        }
        if let made = verdict.challengeTime, now.timeIntervalSince(made) > tokenValidity {
            throw ChallengeVendorError.failed(provider, "the challenge was solved more than \(Int(tokenValidity)) s ago")
        }
    }

    /// The proof of a verified token: its SHA-256 in hex marks it used for the token's lifetime.
    func proof(provider: String, token: String, now: Date) -> ChallengeProof {
        ChallengeProof(provider: provider, replayKey: Hex.encode(Digest.sha256(Array(token.utf8))), replayExpiresAt: now + tokenValidity)
    }
}
