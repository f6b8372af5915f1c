import Foundation
import Synchronization
import VerifyCore

/// The client addresses that failed authentication on this replica lately: a throttle consulted
/// on every request of a busy API (the Twilio-compatible `/v2`) reads the store only for them, so
/// an address that never failed here costs no read (docs/OPERATIONS.md, "Sign-in throttle"). An
/// address remembered nowhere is read again after its first failure on a replica, so across
/// replicas a guesser gets at most one unthrottled failure per replica before the shared log
/// stops it.
///
/// Bounded: past `capacity` clients the expired ones go, and if that frees nothing all do (each is
/// then read from the store again after its next failure: the throttle stays exact, only its
/// shortcut is lost).
final class RecentFailures: Sendable {
    private let remembered = Mutex<[String: Date]>([:])
    private let clock: any Clock
    private let window: TimeInterval
    private let capacity: Int

    init(clock: any Clock, window: TimeInterval, capacity: Int = 10_000) {
        self.clock = clock
        self.window = window
        self.capacity = capacity
    }

    /// Whether `client` (an address) failed here within the window.
    func contains(_ client: String) -> Bool {
        let now = clock.now()
        return remembered.withLock { $0[client].map { $0 > now } ?? false }
    }

    func insert(_ client: String) {
        let now = clock.now()
        remembered.withLock { entries in
            if entries.count >= capacity && entries[client] == nil {
                entries = entries.filter { $0.value > now }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[client] = now.addingTimeInterval(window)
        }
    }
}
