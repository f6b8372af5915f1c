import Foundation
import VerifyCore

/// A challenge provider for domain tests: tokens `pass-…` pass (bound to any request, or to one
/// phone number with `pass-+1…`), `fail-…` fail, anything else is malformed. A token is its own
/// replay key.
public struct FakeChallengeVerifier: ChallengeVerifier {
    public let provider: String

    public init(provider: String = "fake") {
        self.provider = provider
    }

    public var publicParameters: [String: String] { ["site_key": "site-" + provider] }

    public func verify(_ submission: ChallengeSubmission, context: ChallengeContext) throws -> ChallengeProof {
        if submission.token.hasPrefix("pass-") {
            let bound = submission.token.dropFirst("pass-".count)
            if bound.hasPrefix("+"), !bound.hasPrefix(context.phoneNumber) {
                throw VerifyError(.challengeFailed, "the token names another number", details: ["provider": .string(provider)])
            }
            return ChallengeProof(provider: provider, replayKey: submission.token, replayExpiresAt: context.now.addingTimeInterval(300))
        }
        if submission.token.hasPrefix("fail-") {
            throw VerifyError(.challengeFailed, "the \(provider) challenge failed", details: ["provider": .string(provider)])
        }
        throw VerifyError(.invalidRequest, "challenge.token is malformed", details: ["field": "challenge.token"])
    }
}
