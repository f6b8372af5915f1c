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

        public init(_ scope: LimitScope, _ value: String) {
            self.scope = scope
            self.value = value
        }

        /// The store key of this subject's log for one rule.
        public func key(_ rule: LimitRule) -> String { scope.rawValue + "|" + String(rule.window) + "|" + value }
    }

    /// Verdict on a set of subjects: what `record` will write.
    public struct Admission {
        let logs: [(key: String, scope: LimitScope, log: SlidingWindowLog, rule: LimitRule)]
    }

    /// Store keys of every log these subjects read.
    public func keys(_ subjects: [Subject]) -> [String] {
        subjects.flatMap { subject in limits.rules(subject.scope).map { subject.key($0) } }
    }

    /// Throws `rate_limited` when a rule is exhausted, naming the one that refuses longest (so
    /// Retry-After is when a request can pass every rule); otherwise returns what `record` will
    /// write.
    /// `lockout`: a number whose failed-check lockout refuses too (it is judged with the rest, so
    /// the longest refusal wins), without counting anything against it.
    public func admit(_ subjects: [Subject], now: Date, in tx: any StoreTransaction, lockout: String? = nil) throws -> Admission {
        let ms = Self.millis(now)
        var logs: [(key: String, scope: LimitScope, log: SlidingWindowLog, rule: LimitRule)] = []
        var refusal: (scope: LimitScope, report: RateLimitReport)? = try lockout.flatMap { phone in
            try lockoutRefusal(phone: phone, now: now, in: tx).map { (LimitScope.phoneFailedCheck, $0) }
        }
        for subject in subjects {
            for rule in limits.rules(subject.scope) {
                let key = subject.key(rule)
                let log = SlidingWindowLog(events: try tx.limitEvents(key: key))
                let status = log.status(of: rule, now: ms)
                if status.isExhausted, status.resetSeconds > (refusal?.report.status.resetSeconds ?? -1) {
                    refusal = (subject.scope, RateLimitReport(policy: Self.policyName(subject.scope, rule), status: status))
                }
                logs.append((key, subject.scope, log, rule))
            }
        }
        if let refusal { throw Self.refusal(refusal.scope, refusal.report) }
        return Admission(logs: logs)
    }

    /// Records one event for every subject of an admission; returns the rule now closest to
    /// its limit, for the response's RateLimit fields.
    @discardableResult
    public func record(_ admission: Admission, now: Date, in tx: any StoreTransaction) throws -> RateLimitReport? {
        let ms = Self.millis(now)
        var reports: [RateLimitReport] = []
        for entry in admission.logs {
            var log = entry.log
            log.record(ms, rule: entry.rule)
            try tx.setLimitEvents(key: entry.key, events: log.events, expiresAt: now.addingTimeInterval(TimeInterval(entry.rule.window)))
            reports.append(RateLimitReport(policy: Self.policyName(entry.scope, entry.rule), status: log.status(of: entry.rule, now: ms)))
        }
        return RateLimitReport.closest(reports)
    }

    /// Throws `phone_lockout` when the number had too many failed checks within the window: for
    /// one window from the failure that reached the limit (SPEC: "10 / day, then locked for the day").
    public func requireNotLockedOut(phone: String, now: Date, in tx: any StoreTransaction) throws {
        if let longest = try lockoutRefusal(phone: phone, now: now, in: tx) { throw Self.refusal(.phoneFailedCheck, longest) }
    }

    /// The lockout rule that refuses longest, if any does.
    private func lockoutRefusal(phone: String, now: Date, in tx: any StoreTransaction) throws -> RateLimitReport? {
        var longest: RateLimitReport?
        for rule in limits.rules(.phoneFailedCheck) {
            let log = SlidingWindowLog(events: try tx.limitEvents(key: Subject(.phoneFailedCheck, phone).key(rule)))
            let status = log.lockStatus(of: rule, now: Self.millis(now))
            if status.isExhausted, status.resetSeconds > (longest?.status.resetSeconds ?? -1) {
                longest = RateLimitReport(policy: Self.policyName(.phoneFailedCheck, rule), status: status)
            }
        }
        return longest
    }

    /// Counts one failed check against the number; returns the lockout rule now closest to its
    /// limit, so the answer warns before the number is locked.
    @discardableResult
    public func recordFailedCheck(phone: String, now: Date, in tx: any StoreTransaction) throws -> RateLimitReport? {
        var reports: [RateLimitReport] = []
        for rule in limits.rules(.phoneFailedCheck) {
            let key = Subject(.phoneFailedCheck, phone).key(rule)
            var log = SlidingWindowLog(events: try tx.limitEvents(key: key))
            log.record(Self.millis(now), rule: rule)
            try tx.setLimitEvents(key: key, events: log.events, expiresAt: now.addingTimeInterval(TimeInterval(rule.window)))
            reports.append(RateLimitReport(
                policy: Self.policyName(.phoneFailedCheck, rule), status: log.lockStatus(of: rule, now: Self.millis(now))))
        }
        return RateLimitReport.closest(reports)
    }

    static func policyName(_ scope: LimitScope, _ rule: LimitRule) -> String {
        scope.rawValue + "_" + RateLimits.formatWindow(rule.window)
    }

    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    static func refusal(_ scope: LimitScope, _ report: RateLimitReport) -> VerifyError {
        let message: String
        switch scope {
        case .phoneFailedCheck:
            message = "too many incorrect codes for this phone number; try again later"
        default:
            message = "too many requests (\(scope.refusalScope) limit \(report.status.rule)); try again later"
        }
        return VerifyError(
            .rateLimited, message,
            details: ["scope": .string(scope.refusalScope), "limit": .string(report.status.rule.description)],
            retryAfter: max(1, report.status.resetSeconds), rateLimit: report)
    }
}
