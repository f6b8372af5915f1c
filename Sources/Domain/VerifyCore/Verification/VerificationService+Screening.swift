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
    /// Held to a risky destination's usual volume (not an MFA enrolment: the user's own
    /// `user_send` bounds it, and a signed-in user has no proof to show).
    var heldToVolume = true
}

/// The screening's verdict: what `record` writes.
struct ScreenedSend {
    let admission: RateLimiter.Admission
    let verdicts: [FraudVerdict]
    /// Where each capped fraud key stood (`FraudGuard.room`): its admitted sends are counted.
    var rooms: [String: FraudGuard.Room] = [:]
}

extension VerificationService {
    /// Why a start may need a challenge, from a passed or failed challenge to a refusal. Throws
    /// the refusal (rate limit, fraud, `challenge_required`, `challenge_failed`). `steering`: an
    /// SMS destination the guard refuses throws a steerable refusal, and the caller sends over
    /// WhatsApp instead (`screenCutting`); `steered`: this plan is that WhatsApp send.
    func screen(_ s: SendScreening, steering: Bool = false, steered: Bool = false, now: Date, in tx: any StoreTransaction) throws -> ScreenedSend {
        let gate = s.challengeable && challenges.isActive
        let lift = gate
            ? RateLimiter.Lift(
                factor: challengePolicy.liftFactor, passed: s.outcome.passed, bound: s.outcome.isBound, softThreshold: challengePolicy.softThreshold)
            : nil
        let admission = try admitOrAskForBoundProof(s, lift: lift, gate: gate, now: now, in: tx)
        var reasons = admission.pressure
        var verdicts: [FraudVerdict] = []
        var rooms: [String: FraudGuard.Room] = [:]
        if s.judged {
            let fraud = protection.fraud
            verdicts = try fraud.assess(keys: s.fraudKeys, now: now, in: tx)
            let blockRisky = verdicts.first?.isRisky ?? false
            // (A healthy destination's start never enters this loop: it costs nothing more.)
            for verdict in verdicts where verdict.state != .normal && verdict.state != .allowed {
                let (room, reason) = try judge(
                    verdict, s, admission: admission, gate: gate, blockRisky: blockRisky, steering: steering, steered: steered,
                    now: now, in: tx)
                if let room { rooms[verdict.key] = room }
                if let reason { reasons.append(reason) }
            }
        }
        if gate {
            if case .failed(let error) = s.outcome { throw error }
            let needed = challenges.mode == .always || !reasons.isEmpty
            if needed, !s.outcome.passed { throw challenges.required(reasons: reasons.isEmpty ? ["always"] : reasons) }
        }
        return ScreenedSend(admission: admission, verdicts: verdicts, rooms: rooms)
    }

    /// One watched, paused or blocked fraud verdict on a send: throws its refusal, or gives the
    /// room it leaves (counted when capped) and the reason a challenge is asked (none once proof
    /// was shown past the volume).
    private func judge(
        _ verdict: FraudVerdict, _ s: SendScreening, admission: RateLimiter.Admission, gate: Bool, blockRisky: Bool,
        steering: Bool, steered: Bool, now: Date, in tx: any StoreTransaction
    ) throws -> (room: FraudGuard.Room?, reason: String?) {
        let fraud = protection.fraud
        // The start's own number's codes: one of them never counts against it in its block.
        let own = min(1, admission.count(.phoneSend, within: fraud.policy.window, now: now))
        let country = verdict.key.hasPrefix("country:")
        let place = country ? "country" : "block"
        if verdict.state == .blocked { throw try fraud.refusal(verdict, now: now, in: tx) }
        if verdict.state == .paused { eventRecorder?.notePause(verdict, at: now) }
        let sms = !verdict.key.contains("@")
        // A paused SMS destination goes over WhatsApp when this start can: a paused block
        // always; a paused country when no proof can be asked or the start's block is risky.
        if verdict.state == .paused, steering, sms, !country || !gate || blockRisky {
            throw try fraud.refusal(verdict, now: now, in: tx)
        }
        // Held to its usual volume, whatever captcha the start carries (docs/ABUSE.md).
        let room = s.heldToVolume
            ? try fraud.room(verdict, proof: s.outcome, ownSends: own, now: now, in: tx) : FraudGuard.Room.uncapped
        var kept: FraudGuard.Room?
        switch room {
        case .full(let limit, let wait):
            let full = fraud.fullRefusal(verdict, limit: limit, retryAfter: wait)
            if steering && sms { throw full }
            // Only device-bound proof or a grant goes further: ask for it when it is offered.
            if gate, challenges.offersBoundProof, !s.outcome.isBound {
                throw challenges.required(reasons: [place + "_full"], boundOnly: true)
            }
            throw full
        case .within, .proof, .vouched:
            kept = room
        case .uncapped:
            break
        }
        // A pause refuses unless proof can be asked (or was shown past the volume); the
        // WhatsApp a refused SMS destination was steered to is never refused by the guard's
        // own verdict (nobody earns from pumping it).
        let proofShown = room == .proof || room == .vouched
        if verdict.state == .paused, !gate, !proofShown, !(steered && verdict.key.contains("@whatsapp")) {
            throw try fraud.refusal(verdict, now: now, in: tx)
        }
        return (kept, proofShown ? nil : place + (verdict.state == .paused ? "_paused" : "_watched"))
    }

    /// The limits' admission. A start refused only because captchas spent the lifted share of a
    /// number's quota, which device-bound proof or a grant would pass now, is asked for that proof
    /// (`challenge_required` offering only those providers) rather than told to wait a day.
    func admitOrAskForBoundProof(
        _ s: SendScreening, lift: RateLimiter.Lift?, gate: Bool, now: Date, in tx: any StoreTransaction
    ) throws -> RateLimiter.Admission {
        let limiter = protection.limiter
        do {
            return try limiter.admit(s.subjects, now: now, in: tx, lockout: s.lockoutKey, lift: lift)
        } catch let error as VerifyError where error.code == .rateLimited {
            guard let lift, gate, challenges.offersBoundProof, !s.outcome.isBound else { throw error }
            let bound = RateLimiter.Lift(factor: lift.factor, passed: true, bound: true, softThreshold: lift.softThreshold)
            guard (try? limiter.admit(s.subjects, now: now, in: tx, lockout: s.lockoutKey, lift: bound)) != nil else { throw error }
            throw challenges.required(reasons: ["captcha_share_exhausted"], boundOnly: true)
        }
    }

    /// Records a screened send: its limits' events and the fraud guard's counters.
    func record(_ screened: ScreenedSend, _ s: SendScreening, now: Date, in tx: any StoreTransaction) throws -> RateLimitReport? {
        let report = try protection.limiter.record(screened.admission, now: now, in: tx)
        if !s.fraudKeys.isEmpty {
            try protection.fraud.recordSend(
                keys: s.fraudKeys, verdicts: screened.verdicts, rooms: screened.rooms, client: s.client, now: now, in: tx)
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
