import VerifyCore

/// The refusals every provider gives, worded once.
enum ChallengeVendorError {
    /// The token (or attestation) was checked and is not acceptable; `reason` says why, without
    /// quoting the token.
    static func failed(_ provider: String, _ reason: String) -> VerifyError {
        VerifyError(.challengeFailed, "the \(provider) challenge failed: \(reason)", details: ["provider": .string(provider)])
    }

    /// The submission itself is malformed (missing member, oversized token).
    static func malformed(_ field: String, _ problem: String) -> VerifyError {
        VerifyError(.invalidRequest, "challenge.\(field) \(problem)", details: ["field": .string("challenge." + field)])
    }

    /// The vendor could not be asked (timeout, 5xx): the client may retry.
    static func unavailable(_ provider: String) -> VerifyError {
        VerifyError(.unavailable, "the \(provider) challenge could not be verified right now; try again", retryAfter: 5)
    }
}
