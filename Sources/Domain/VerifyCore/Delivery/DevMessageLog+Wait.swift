import Foundation

/// A ``DevMessageLog`` that can say when messages arrive, so live views (the dev inbox's
/// server-sent events) and waiting lookups (`GET /dev/messages?wait=`) wait for them instead
/// of polling.
///
/// A separate protocol rather than requirements added to `DevMessageLog`: callers ask with
/// `as? DevMessageFeed` and fall back to polling logs that cannot wait.
public protocol DevMessageFeed: DevMessageLog {
    /// How many messages were recorded so far; only ever grows (it is not the number kept).
    var count: Int { get }
    /// Blocks until `count` exceeds `seen` or `timeout` passes, and returns `count`.
    func wait(after seen: Int, timeout: TimeInterval) -> Int
    /// The matching messages, newest first; when none match yet, waits up to `timeout` for one.
    func waitForMessages(to phoneNumber: String?, verificationID: String?, limit: Int, timeout: TimeInterval) -> [DevMessage]
}

extension DevMessageLog {
    /// Newest first, filtered by number and/or verification (a default that filters
    /// `messages(to:limit:)`; a log with an index does better).
    public func messages(to phoneNumber: String?, verificationID: String?, limit: Int) -> [DevMessage] {
        guard let verificationID else { return messages(to: phoneNumber, limit: limit) }
        return Array(messages(to: phoneNumber, limit: 1000).filter { $0.verificationID == verificationID }.prefix(limit))
    }
}

extension DevMessageFeed {
    /// A default on top of `wait(after:timeout:)`: wakes on every message and looks again.
    /// The timeout is how long a caller blocks, so it is measured on the monotonic clock: not the
    /// wall clock (which can jump) and not the domain's injected `Clock` (which dates records, and
    /// which a test may hold still while a thread waits).
    public func waitForMessages(to phoneNumber: String?, verificationID: String?, limit: Int, timeout: TimeInterval) -> [DevMessage] {
        let deadline = ContinuousClock.now + .milliseconds(Int64((max(0, timeout) * 1000).rounded(.up)))
        var seen = count
        while true {
            let found = messages(to: phoneNumber, verificationID: verificationID, limit: limit)
            let remaining = ContinuousClock.now.duration(to: deadline).components
            let left = Double(remaining.seconds) + Double(remaining.attoseconds) / 1e18
            if !found.isEmpty || left <= 0 || (phoneNumber == nil && verificationID == nil) { return found }
            seen = wait(after: seen, timeout: left)
        }
    }
}
