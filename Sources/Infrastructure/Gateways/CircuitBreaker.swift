import Foundation
import VerifyCore

/// Stops calling a failing gateway: opens after `threshold` consecutive failures, lets one trial
/// call through after `cooldown` seconds (half-open), and closes again on a success.
public final class CircuitBreaker: @unchecked Sendable {
    // @unchecked: the breaker's state is only touched with `lock` held.
    public enum State: String, Sendable { case closed, open, halfOpen = "half_open" }

    private let lock = NSLock()
    private let threshold: Int
    private let cooldown: TimeInterval
    private var failures = 0
    private var openedAt: Date?
    private var trialInFlight = false

    public init(threshold: Int = 5, cooldown: TimeInterval = 30) {
        self.threshold = threshold
        self.cooldown = cooldown
    }

    public func state(at now: Date) -> State {
        lock.lock()
        defer { lock.unlock() }
        return currentState(now)
    }

    private func currentState(_ now: Date) -> State {
        guard let openedAt else { return .closed }
        return now.timeIntervalSince(openedAt) >= cooldown ? .halfOpen : .open
    }

    /// Whole seconds until an open circuit lets a trial through (at least 1); nil when it is not open.
    public func secondsUntilTrial(at now: Date) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard currentState(now) == .open, let openedAt else { return nil }
        return max(1, Int((cooldown - now.timeIntervalSince(openedAt)).rounded(.up)))
    }

    /// Whether a call may go through now (in half-open, only one trial at a time).
    public func allow(at now: Date) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        switch currentState(now) {
        case .closed: return true
        case .open: return false
        case .halfOpen:
            if trialInFlight { return false }
            trialInFlight = true
            return true
        }
    }

    public func record(success: Bool, at now: Date) {
        lock.lock()
        defer { lock.unlock() }
        trialInFlight = false
        if success {
            failures = 0
            openedAt = nil
        } else {
            failures += 1
            if failures >= threshold || openedAt != nil { openedAt = now }
        }
    }
}
