import Foundation

/// What became of a request's challenge before its transaction: none sent, verified, or failed.
/// A failure is thrown inside the transaction, after the idempotency check, so a client that
/// retries a start whose answer was lost gets its verification back, not a replay refusal.
public enum ChallengeOutcome: Sendable, Equatable {
    case none
    case passed(provider: String)
    case failed(VerifyError)

    public var passed: Bool { if case .passed = self { return true } else { return false } }

    /// Passed with proof bound to a device or vouched for by the customer's backend, which may
    /// go where a captcha may not (docs/ABUSE.md).
    public var isBound: Bool {
        if case .passed(let provider) = self { return ChallengeGate.boundProviders.contains(provider) } else { return false }
    }
}

/// The configured providers and the policy of when proof is asked (docs/CHALLENGES.md).
public struct ChallengeGate: Sendable {
    public let mode: ChallengeMode
    public let verifiers: [any ChallengeVerifier]
    let ledger: (any ChallengeLedger)?
    let events: any EventSink

    public init(mode: ChallengeMode, verifiers: [any ChallengeVerifier], ledger: (any ChallengeLedger)?, events: any EventSink = NoEvents()) {
        self.mode = verifiers.isEmpty ? .off : mode
        self.verifiers = verifiers
        self.ledger = ledger
        self.events = events
    }

    public static let off = ChallengeGate(mode: .off, verifiers: [], ledger: nil)

    /// Providers whose proof costs an attacker a real device (App Attest, Play Integrity) or the
    /// customer's own vouching for the number (a grant): a captcha farm cannot buy them.
    public static let boundProviders: Set<String> = ["app_attest", "play_integrity", "grant"]

    /// Whether any configured provider gives bound proof.
    public var offersBoundProof: Bool { verifiers.contains { Self.boundProviders.contains($0.provider) } }

    /// Whether proof can be asked at all.
    public var isActive: Bool { mode != .off }

    /// Providers and their public parameters, for `challenge_required`.
    public var providerDetails: JSONValue { providerDetails(boundOnly: false) }

    func providerDetails(boundOnly: Bool) -> JSONValue {
        .array(verifiers.filter { !boundOnly || Self.boundProviders.contains($0.provider) }.map { verifier in
            var members: [JSONMember] = [JSONMember("name", .string(verifier.provider))]
            for (key, value) in verifier.publicParameters.sorted(by: { $0.key < $1.key }) {
                members.append(JSONMember(key, .string(value)))
            }
            return .object(members)
        })
    }

    /// Verifies a submission (outside any transaction: a provider may call its vendor) and
    /// records its token as used. Malformed submissions throw `invalid_request` at once; a token
    /// that fails or is replayed becomes `.failed`.
    public func check(_ submission: ChallengeSubmission?, context: ChallengeContext) throws -> ChallengeOutcome {
        guard let submission else { return .none }
        guard let verifier = verifiers.first(where: { $0.provider == submission.provider }) else {
            let names = verifiers.map(\.provider)
            throw VerifyError(
                .invalidRequest,
                names.isEmpty
                    ? "challenge: no challenge provider is configured"
                    : "challenge.provider must be one of: " + names.joined(separator: ", "),
                details: ["field": "challenge.provider"])
        }
        do {
            let proof = try verifier.verify(submission, context: context)
            if let ledger, try !ledger.consumeOnce(key: proof.provider + "|" + proof.replayKey, expiresAt: proof.replayExpiresAt, now: context.now) {
                events.record(.challenge(provider: verifier.provider, outcome: "failed"))
                return .failed(VerifyError(.challengeFailed, "this challenge token was already used", details: ["provider": .string(verifier.provider)]))
            }
            events.record(.challenge(provider: verifier.provider, outcome: "passed"))
            return .passed(provider: verifier.provider)
        } catch let error as VerifyError where error.code == .challengeFailed {
            events.record(.challenge(provider: verifier.provider, outcome: "failed"))
            return .failed(error)
        }
    }

    /// Counts a `challenge_required` answer once per offered provider, and its reasons (after
    /// its transaction: a transaction body may run more than once).
    func recordAsked(reasons: [String]) {
        for verifier in verifiers { events.record(.challenge(provider: verifier.provider, outcome: "asked")) }
        for reason in reasons { events.record(.challengeReason(reason)) }
    }

    /// The refusal of a request that needs proof and has none. `reasons` say why; they are kept
    /// off the response (a stranger could read a number's or a block's activity from them) and
    /// counted in the metrics instead.
    /// `boundOnly`: only device-bound proof or a grant can help (a destination past its usual
    /// volume), so only those providers are offered.
    func required(reasons: [String], boundOnly: Bool = false) -> VerifyError {
        var error = VerifyError(
            .challengeRequired,
            boundOnly
                ? "this destination takes only device-bound proof or a grant now; a captcha is not enough"
                : "a challenge must be solved before a code is sent to this number",
            details: ["providers": providerDetails(boundOnly: boundOnly)])
        error.reasons = reasons
        return error
    }
}
