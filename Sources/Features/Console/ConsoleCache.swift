import Foundation
import Synchronization
import VerifyCore

/// Keeps the delivery page's day-long aggregates for a while: they scan a day of rows (about a
/// second at 500,000 starts a day on SQLite, docs/OPERATIONS.md "Costs and limits"), change
/// slowly, and every open console refreshes every 10 s. One per replica, in memory.
final class ConsoleCache: Sendable {
    private let entries = Mutex<[String: (at: Date, value: JSONValue)]>([:])

    /// The value stored under `key` if younger than `ttl`, else `make()`'s (stored).
    func value(_ key: String, ttl: TimeInterval, now: Date, _ make: () throws -> JSONValue) rethrows -> JSONValue {
        if let hit = entries.withLock({ $0[key] }), now.timeIntervalSince(hit.at) < ttl, now >= hit.at { return hit.value }
        let value = try make()
        entries.withLock { $0[key] = (now, value) }
        return value
    }
}
