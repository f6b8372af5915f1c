import Foundation

/// A watched or paused destination admits at most its usual volume of unconfirmed codes, whatever
/// proof a start carries (docs/ABUSE.md, "A watched destination admits its usual volume"): a
/// captcha farm that solves every challenge then spends no more than the destination's own users
/// did, while its users, who confirm their codes, keep the door open. Read only for a key that is
/// already risky, so a healthy start pays nothing for it.
extension FraudGuard {
    /// Where a key stands against its usual volume.
    public enum Room: Sendable, Equatable {
        /// Not held to it: a normal or allowed key, a watched country, a WhatsApp key.
        case uncapped
        /// Within its usual volume.
        case within
        /// Past it, admitted on device-bound proof (counts against the proof rate).
        case proof
        /// Past it, admitted on a grant: the customer's backend vouches for the number, whose own
        /// quota bounds it; it never spends the proof rate a device attacker could spend.
        case vouched
        /// Past it: refused (or steered to WhatsApp). `limit`: the unconfirmed codes it admits;
        /// `retryAfter`: when enough of them leave the window.
        case full(limit: Int, retryAfter: Int)
    }

    /// Whether `verdict`'s key is held to its usual volume: a watched or paused block of a channel
    /// that can be pumped (SMS and voice; a WhatsApp message earns an attacker nothing, and to a
    /// number without WhatsApp it is not even delivered). A country is not: its blocks answer for
    /// their own sends, and capping it would narrow every block of the country at once.
    public func isCapped(_ verdict: FraudVerdict) -> Bool {
        guard !verdict.key.contains("@whatsapp"), !verdict.key.hasPrefix("country:") else { return false }
        return verdict.state == .watched || verdict.state == .paused
    }

    /// The unconfirmed codes per window a capped key admits: those that made it watched
    /// (`watchSends`) plus its usual sends per window (its average over the baseline before the
    /// window), at least `floor`.
    func limit(_ verdict: FraudVerdict, now: Date, in tx: any StoreReader) throws -> Int {
        let usual = try baselinePerWindow(key: verdict.key, counts: (verdict.sent, verdict.approved), now: now, in: tx).sent
        return policy.watchSends + max(policy.floor, Int(usual.rounded(.up)))
    }

    /// Where `verdict`'s key stands for a start carrying `proof`. `ownSends`: codes sent to the
    /// start's own number in the window that do not count against it (the caller passes at most
    /// one): strangers who spend a number's quota narrow its block for others, not for its owner.
    public func room(_ verdict: FraudVerdict, proof: ChallengeOutcome = .none, ownSends: Int = 0, now: Date, in tx: any StoreReader) throws -> Room {
        guard policy.enabled, isCapped(verdict) else { return .uncapped }
        let limit = try limit(verdict, now: now, in: tx)
        if verdict.sent - verdict.approved - ownSends < limit { return .within }
        if proof == .passed(provider: "grant") { return .vouched }
        let since = now.addingTimeInterval(-TimeInterval(policy.window))
        if proof.isBound, try tx.fraudCounts(key: Self.proofKey(verdict.key), since: since).sent < policy.proofRate { return .proof }
        let wait = try secondsUntil(key: verdict.key, now: now, in: tx) { $0.sent - $0.approved < limit }
        return .full(limit: limit, retryAfter: wait)
    }

    /// Counts a send admitted on proof past a key's usual volume (`room` said `.proof`).
    func recordAdmitted(_ key: String, room: Room, now: Date, in tx: any StoreTransaction) throws {
        guard room == .proof else { return }
        try tx.addFraudCounts(key: Self.proofKey(key), bucket: bucket(now), sent: 1, approved: 0)
    }

    /// The refusal of a start to a key past its usual volume.
    func fullRefusal(_ verdict: FraudVerdict, limit: Int, retryAfter: Int) -> VerifyError {
        let kind = verdict.key.hasPrefix("country:") ? "country" : "prefix"
        let reason = "this \(kind == "country" ? "country" : "block") is \(verdict.state.rawValue) and admits its usual volume, "
            + "\(limit) unconfirmed codes in \(policy.window / 60) min, which are used: " + verdict.reason
        var error = VerifyError(
            .suspectedFraud, "sending to this destination is limited: " + reason,
            details: [
                "scope": .string(kind), "key": .string(String(verdict.key.drop { $0 != ":" }.dropFirst())), "reason": .string(reason),
            ],
            retryAfter: retryAfter,
            rateLimit: RateLimitReport(
                policy: "fraud_" + kind,
                status: LimitStatus(rule: LimitRule(quota: limit, window: policy.window), remaining: 0, resetSeconds: retryAfter)))
        // SMS may go over WhatsApp instead; another channel's key (a call) cuts that channel from
        // an `auto` plan (`VerificationService.cut`), never SMS with it.
        error.steerable = !verdict.key.contains("@")
        return Self.namingChannel(error, of: verdict.key)
    }

    /// The bookkeeping key of sends admitted on proof past a key's usual volume (never listed:
    /// `FraudAdmin.isValidKey`).
    static func proofKey(_ key: String) -> String { "proof|" + key }

    /// Seconds until `admits` holds for what remains of `key`'s counters if nothing new happens:
    /// its buckets leave the window oldest first, a bucket starting at `b` counting up to and
    /// including `b + window`. Reads at most window ÷ bucket + 1 sums, only on a refusal.
    func secondsUntil(key: String, now: Date, in tx: any StoreReader, admits: ((sent: Int, approved: Int)) -> Bool) throws -> Int {
        let size = Double(policy.bucket)
        let window = Double(policy.window)
        let nowSeconds = now.timeIntervalSince1970
        var leaving = ((nowSeconds - window) / size).rounded(.up) * size  // oldest bucket counted now
        let current = bucket(now).timeIntervalSince1970
        while leaving <= current {
            let remaining = try tx.fraudCounts(key: key, since: Date(timeIntervalSince1970: leaving + size))
            if admits(remaining) { return max(1, Int((leaving + window - nowSeconds).rounded(.down)) + 1) }
            leaving += size
        }
        return policy.window  // not reached: once the current bucket leaves, nothing remains
    }
}
