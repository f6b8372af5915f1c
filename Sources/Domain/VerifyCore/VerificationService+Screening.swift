import Foundation

/// What stands between a send and the SMS bill, judged inside the send's transaction: the rate
/// limits, the fraud guard and, for first-factor sign-in through the native API, the challenge
/// policy (docs/CHALLENGES.md, "When a challenge is asked").
struct SendScreening {
    let subjects: [RateLimiter.Subject]
    let lockoutKey: String
    /// The destination's fraud keys; empty when nothing is sent (test numbers).
    let fraudKeys: [String]
    /// The fraud guard judges the destination (not for a user's own enrolled factor).
    let judged: Bool
    /// A challenge may be asked (native first-factor sign-in with an active gate).
    let challengeable: Bool
    let outcome: ChallengeOutcome
    let client: String
}

/// The screening's verdict: what `record` writes.
struct ScreenedSend {
    let admission: RateLimiter.Admission
    let verdicts: [FraudVerdict]
}

extension VerificationService {
    /// Why a start may need a challenge, from a passed or failed challenge to a refusal. Throws
    /// the refusal (rate limit, fraud, `challenge_required`, `challenge_failed`).
    func screen(_ s: SendScreening, now: Date, in tx: any StoreTransaction) throws -> ScreenedSend {
        let gate = s.challengeable && challenges.isActive
        let lift = gate
            ? RateLimiter.Lift(factor: challengePolicy.liftFactor, passed: s.outcome.passed, softThreshold: challengePolicy.softThreshold)
            : nil
        let admission = try protection.limiter.admit(s.subjects, now: now, in: tx, lockout: s.lockoutKey, lift: lift)
        var reasons = admission.pressure
        var verdicts: [FraudVerdict] = []
        if s.judged {
            verdicts = try protection.fraud.assess(keys: s.fraudKeys, now: now, in: tx)
            for verdict in verdicts {
                switch verdict.state {
                case .blocked:
                    throw try protection.fraud.refusal(verdict, now: now, in: tx)
                case .paused:
                    eventRecorder?.notePause(verdict, at: now)
                    // A paused destination asks for proof instead of refusing, when proof can be asked.
                    guard gate else { throw try protection.fraud.refusal(verdict, now: now, in: tx) }
                    reasons.append(verdict.key.hasPrefix("country:") ? "country_paused" : "block_paused")
                case .watched:
                    reasons.append(verdict.key.hasPrefix("country:") ? "country_watched" : "block_watched")
                case .normal, .allowed:
                    break
                }
            }
        }
        if gate {
            if case .failed(let error) = s.outcome { throw error }
            let needed = challenges.mode == .always || !reasons.isEmpty
            if needed, !s.outcome.passed { throw challenges.required(reasons: reasons.isEmpty ? ["always"] : reasons) }
        }
        return ScreenedSend(admission: admission, verdicts: verdicts)
    }

    /// Records a screened send: its limits' events and the fraud guard's counters.
    func record(_ screened: ScreenedSend, _ s: SendScreening, now: Date, in tx: any StoreTransaction) throws -> RateLimitReport? {
        let report = try protection.limiter.record(screened.admission, now: now, in: tx)
        if !s.fraudKeys.isEmpty {
            try protection.fraud.recordSend(keys: s.fraudKeys, verdicts: screened.verdicts, client: s.client, now: now, in: tx)
        }
        return report
    }

    /// Verifies a submitted challenge before a send's transaction; `.none` when no challenge
    /// can be asked of this request (MFA, the Twilio-compatible API, challenges off).
    func checkChallenge(_ submission: ChallengeSubmission?, purpose: Purpose, action: String, phone: String,
                        verificationID: String? = nil, client: String, now: Date) throws -> ChallengeOutcome {
        guard purpose == .signIn, challenges.isActive else { return .none }
        if submission != nil { try countChallenge(client: client, now: now) }
        // A client identity that is not one IP (an IPv6 /64, a server caller) is no `remoteip`.
        let ip = client.contains("/") || AbuseProtection.isServerCaller(client) ? "" : client
        return try challenges.check(
            submission, context: ChallengeContext(action: action, phoneNumber: phone, verificationID: verificationID, clientIP: ip, now: now))
    }

    /// Each submitted challenge costs a vendor call (or a signature check): a client gets
    /// `ip_challenge` of them (30 per 10 minutes), counted before the call, passed or not.
    func countChallenge(client: String, now: Date) throws {
        let subjects = [RateLimiter.Subject(.ipChallenge, client.isEmpty ? "unknown" : client)]
        let limiter = protection.limiter
        guard !limiter.limits.rules(.ipChallenge).isEmpty else { return }
        try countingRefusals {
            try store.write(reading: ReadSet(limitKeys: limiter.keys(subjects))) { tx in
                _ = try limiter.record(try limiter.admit(subjects, now: now, in: tx), now: now, in: tx)
            }
        }
    }
}
