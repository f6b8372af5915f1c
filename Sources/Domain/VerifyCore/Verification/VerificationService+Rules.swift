import Foundation

/// The refusals a send or a check shares: custom codes, a verification that is over, exhausted
/// quotas as RateLimit reports, and the lifetimes they are measured in.
extension VerificationService {
    /// A caller-chosen code proves nothing about the number, so only delegated
    /// verifications (`Purpose.isDelegated`: they never yield a credential) may carry one.
    static func requireCustomCodeAllowed(_ purpose: Purpose) throws {
        guard purpose.isDelegated else {
            throw VerifyError(
                .invalidRequest, "custom_code is only for verifications of the Twilio-compatible API", details: ["field": "custom_code"])
        }
    }

    /// Throws unless the verification still accepts sends and checks.
    static func requireUsable(_ v: Verification, now: Date) throws {
        switch v.status(at: now) {
        case .approved: throw VerifyError(.alreadyUsed, "the verification was already approved")
        case .canceled: throw VerifyError(.alreadyUsed, "the verification was canceled")
        case .maxAttemptsReached:
            throw maxAttempts(v, now: now)
        case .expired: throw VerifyError(.expired, "the code has expired; start a new verification")
        case .pending:
            if v.attempts >= v.maxAttempts { throw maxAttempts(v, now: now) }
        }
    }

    /// 429s must say when to come back: this verification never accepts another check, so
    /// Retry-After is the rest of its lifetime; a new verification may be started at once.
    static func maxAttempts(_ v: Verification, now: Date) -> VerifyError {
        let rest = remainingLifetime(v, now: now)
        return VerifyError(
            .maxAttemptsReached, "too many incorrect codes; start a new verification", retryAfter: rest,
            rateLimit: exhausted("verification_attempts", quota: v.maxAttempts, window: codeLifetime(v), reset: rest))
    }

    /// A 429 that is not a sliding-window limit still reports itself as an exhausted policy
    /// (`RateLimit-Policy`/`RateLimit` on every 429): per verification, over its code's lifetime.
    static func exhausted(_ policy: String, quota: Int, window: Int, reset: Int) -> RateLimitReport {
        RateLimitReport(policy: policy, status: LimitStatus(rule: LimitRule(quota: quota, window: window), remaining: 0, resetSeconds: reset))
    }

    static func codeLifetime(_ v: Verification) -> Int {
        max(1, Int(v.expiresAt.timeIntervalSince(v.lastSentAt).rounded(.up)))
    }

    static func remainingLifetime(_ v: Verification, now: Date) -> Int {
        max(1, Int(v.expiresAt.timeIntervalSince(now).rounded(.up)))
    }
}

extension VerifyError {
    static func notFound(_ id: String) -> VerifyError {
        VerifyError(.notFound, "no verification with this id")
    }
}
