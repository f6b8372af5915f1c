import Foundation

/// Applies `RateLimits` inside a store transaction. Checks every subject first and records only
/// when all allow, so a refusal consumes no quota anywhere; the transaction makes it exact under
/// concurrency and across processes.
public struct RateLimiter: Sendable {
    public let limits: RateLimits

    public init(limits: RateLimits) {
        self.limits = limits
    }

    /// One subject a request counts against, e.g. (.phoneSend, "+14155552671").
    public struct Subject: Sendable {
        public let scope: LimitScope
        public let value: String
        /// Events one request counts (an `auto` start's messages against the spend caps).
        public let cost: Int
        /// Counted only when a start goes past a number's own quota on a lifted one (the
        /// requester's share, `phone_requester_send`); listed after the number's subjects.
        public let whenLifted: Bool

        public init(_ scope: LimitScope, _ value: String, cost: Int = 1, whenLifted: Bool = false) {
            self.scope = scope
            self.value = value
            self.cost = max(1, cost)
            self.whenLifted = whenLifted
        }

        /// The store key of this subject's log for one rule.
        public func key(_ rule: LimitRule) -> String { scope.rawValue + "|" + String(rule.window) + "|" + value }
    }

    /// Verdict on a set of subjects: what `record` will write, and the quotas under pressure
    /// (past the soft threshold, or exhausted but liftable by a challenge) when a lift applies.
    public struct Admission {
        /// `rule`: what the log keeps (lifted when a challenge may lift it); `shown`: the quota
        /// reported in the RateLimit fields.
        let logs: [(key: String, scope: LimitScope, log: SlidingWindowLog, rule: LimitRule, shown: LimitRule, cost: Int)]
        public internal(set) var pressure: [String] = []

        /// Events of `scope` in the last `window` seconds before `now`, as its logs know them (each
        /// keeps its own rule's quota of instants): nothing when the scope has no rule.
        func count(_ scope: LimitScope, within window: Int, now: Date) -> Int {
            logs.filter { $0.scope == scope }.map { $0.log.count(in: window, now: RateLimiter.millis(now)) }.max() ?? 0
        }
    }

    /// How challenges change the limits of a start that may be asked for one (docs/CHALLENGES.md).
    public struct Lift: Sendable {
        /// Scopes a passed challenge lifts: a number's, a client's and a block's sends.
        public static let scopes: Set<LimitScope> = [.phoneSend, .ipSend, .prefixSend, .whatsappSend, .callSend]
        /// A number's own quotas, whose lifted share is counted per requester too.
        public static let numberScopes: Set<LimitScope> = [.phoneSend, .whatsappSend, .callSend]
        /// A passed challenge allows up to `factor` × the quota.
        public let factor: Int
        public let passed: Bool
        /// The proof is bound to a device (App Attest, Play Integrity) or vouched for by the
        /// customer's backend (a grant naming the number).
        public let bound: Bool
        /// Quotas used to this fraction are reported as pressure.
        public let softThreshold: Double

        public init(factor: Int, passed: Bool, bound: Bool = false, softThreshold: Double) {
            self.factor = max(1, factor)
            self.passed = passed
            self.bound = passed && bound
            self.softThreshold = softThreshold
        }

        /// What a log keeps: the most any start may reach.
        func kept(_ rule: LimitRule) -> LimitRule { LimitRule(quota: rule.quota * factor, window: rule.window) }

        /// The quota this start may reach. A captcha lifts a number's own quotas halfway to the
        /// ceiling: the rest is held for device-bound proof or a grant, so strangers who solve
        /// every captcha still leave the owner a way in (docs/ABUSE.md).
        func ceiling(_ rule: LimitRule, scope: LimitScope) -> LimitRule {
            let full = kept(rule)
            guard Self.numberScopes.contains(scope), !bound else { return full }
            return LimitRule(quota: rule.quota + (full.quota - rule.quota) / 2, window: rule.window)
        }
    }

    /// Store keys of every log these subjects read.
    public func keys(_ subjects: [Subject]) -> [String] {
        subjects.flatMap { subject in limits.rules(subject.scope).map { subject.key($0) } }
    }

    /// Throws `rate_limited` when a rule is exhausted, naming the one that refuses longest (so
    /// Retry-After is when a request can pass every rule); otherwise returns what `record` will
    /// write.
    /// `lockout`: the key of a requester's failed checks on a number (`LockoutPolicy.key`) whose
    /// backoff refuses too (judged with the rest, so the longest refusal wins), without counting
    /// anything against it.
    /// `lift`: a start a challenge may be asked of. A number's, client's or block's exhausted
    /// quota then refuses only past `factor` × the quota; below that it is reported as pressure
    /// (unless the challenge passed), as is a quota past the soft threshold.
    public func admit(
        _ subjects: [Subject], now: Date, in tx: any StoreTransaction, lockout: String? = nil, lift: Lift? = nil
    ) throws -> Admission {
        let ms = Self.millis(now)
        var logs: [(key: String, scope: LimitScope, log: SlidingWindowLog, rule: LimitRule, shown: LimitRule, cost: Int)] = []
        var pressure: [String] = []
        var refusal: (scope: LimitScope, report: RateLimitReport)? = try lockout.flatMap { key in
            try lockoutRefusal(key: key, now: now, in: tx).map { (LimitScope.phoneFailedCheck, $0) }
        }
        // Whether a number's own quota is spent and this start goes on a lifted one.
        var lifted = false
        for subject in subjects {
            if subject.whenLifted && !lifted { continue }
            let liftable = lift != nil && Lift.scopes.contains(subject.scope)
            for rule in limits.rules(subject.scope) {
                let key = subject.key(rule)
                let log = SlidingWindowLog(events: try tx.limitEvents(key: key))
                let kept = liftable ? lift?.kept(rule) ?? rule : rule
                let status = log.status(of: liftable ? lift?.ceiling(rule, scope: subject.scope) ?? rule : rule, now: ms)
                // A request of several events needs room for all of them.
                if (status.remaining < subject.cost) && status.resetSeconds > (refusal?.report.status.resetSeconds ?? -1) {
                    refusal = (subject.scope, RateLimitReport(policy: Self.policyName(subject.scope, rule), status: status))
                }
                if let lift, liftable, status.remaining >= subject.cost {
                    let base = log.status(of: rule, now: ms)
                    if base.remaining < subject.cost {
                        if Lift.numberScopes.contains(subject.scope) { lifted = true }
                        if !lift.passed { pressure.append(subject.scope.rawValue + "_exhausted") }
                    } else if Double(rule.quota - base.remaining) >= lift.softThreshold * Double(rule.quota) {
                        pressure.append(subject.scope.rawValue + "_soft")
                    }
                }
                logs.append((key, subject.scope, log, kept, rule, subject.cost))
            }
        }
        if let refusal { throw Self.refusal(refusal.scope, refusal.report) }
        return Admission(logs: logs, pressure: pressure)
    }

    /// Records one event for every subject of an admission; returns the rule now closest to
    /// its limit, for the response's RateLimit fields.
    @discardableResult
    public func record(_ admission: Admission, now: Date, in tx: any StoreTransaction) throws -> RateLimitReport? {
        let ms = Self.millis(now)
        var reports: [RateLimitReport] = []
        for entry in admission.logs {
            var log = entry.log
            for _ in 0..<entry.cost { log.record(ms, rule: entry.rule) }
            try tx.setLimitEvents(key: entry.key, events: log.events, expiresAt: now.addingTimeInterval(TimeInterval(entry.rule.window)))
            reports.append(RateLimitReport(policy: Self.policyName(entry.scope, entry.shown), status: log.status(of: entry.shown, now: ms)))
        }
        return RateLimitReport.closest(reports)
    }

    /// The lockout's refusal for a requester's key, if it must wait.
    private func lockoutRefusal(key: String, now: Date, in tx: any StoreTransaction) throws -> RateLimitReport? {
        guard let policy = limits.lockout else { return nil }
        let status = policy.status(try tx.limitEvents(key: key), now: Self.millis(now))
        guard status.isExhausted else { return nil }
        return RateLimitReport(policy: Self.policyName(.phoneFailedCheck, policy.rule), status: status)
    }

    /// Counts one failed check against a requester's key; returns where its lockout now stands,
    /// so the answer warns before the requester has to wait.
    @discardableResult
    public func recordFailedCheck(key: String, now: Date, in tx: any StoreTransaction) throws -> RateLimitReport? {
        guard let policy = limits.lockout else { return nil }
        let ms = Self.millis(now)
        let events = policy.recording(try tx.limitEvents(key: key), now: ms)
        try tx.setLimitEvents(key: key, events: events, expiresAt: now.addingTimeInterval(TimeInterval(policy.window)))
        return RateLimitReport(policy: Self.policyName(.phoneFailedCheck, policy.rule), status: policy.status(events, now: ms))
    }

    static func policyName(_ scope: LimitScope, _ rule: LimitRule) -> String {
        scope.rawValue + "_" + RateLimits.formatWindow(rule.window)
    }

    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    static func refusal(_ scope: LimitScope, _ report: RateLimitReport) -> VerifyError {
        let message: String
        switch scope {
        case .phoneFailedCheck:
            message = "too many incorrect codes for this phone number from this client; try again in \(max(1, report.status.resetSeconds)) s"
        case .phoneRequesterSend:
            message = "this client has used its share of codes to this phone number (limit \(report.status.rule)); try again later"
        case .whatsappSend, .callSend:
            let what = scope == .callSend ? "calls" : "WhatsApp messages"
            message = "too many \(what) to this phone number (limit \(report.status.rule)); try again later or ask for another channel"
        default:
            message = "too many requests (\(scope.refusalScope) limit \(report.status.rule)); try again later"
        }
        var details: [String: JSONValue] = ["scope": .string(scope.refusalScope), "limit": .string(report.status.rule.description)]
        // A channel's own quota: the app may offer another channel at once (docs/CHANNELS.md).
        if scope == .whatsappSend { details["channel"] = "whatsapp" }
        if scope == .callSend { details["channel"] = "call" }
        return VerifyError(.rateLimited, message, details: details, retryAfter: max(1, report.status.resetSeconds), rateLimit: report)
    }
}
