import Foundation
import VerifyCore

/// A number's send quota as the rate limiter sees it (`phone_send` rules): per rule, how many
/// sends its window holds and how many are left, read from the stored limit logs.
struct ConsoleSendQuota: Sendable {
    let store: any LimitLogAdminStore
    let limits: RateLimits
    let clock: any Clock

    func status(of e164: String) throws -> [LimitStatus] {
        let subject = RateLimiter.Subject(.phoneSend, e164)
        let now = Int64((clock.now().timeIntervalSince1970 * 1000).rounded(.down))  // as RateLimiter counts
        return try limits.rules(.phoneSend).map { rule in
            let key = subject.key(rule)
            // The prefix also matches longer numbers: keep the exact key only.
            let events = try store.limitLogs(prefix: key).first { $0.key == key }?.events ?? []
            return SlidingWindowLog(events: events).status(of: rule, now: now)
        }
    }
}
