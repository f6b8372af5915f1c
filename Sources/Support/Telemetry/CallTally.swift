import Foundation
import Synchronization

/// Counts of labelled events per minute over the last day, in memory (one replica since it
/// started): what the console's delivery page shows of gateway calls in the last hour and day,
/// which the store does not keep (a failed call to a gateway that failed over leaves no row).
public final class CallTally: Sendable {
    public static let minutesKept = 24 * 60
    /// (labels joined by "\u{1}") → minute since 1970 → count.
    private let counts = Mutex<[String: [Int64: Int]]>([:])
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    public func record(_ labels: [String]) {
        let minute = Self.minute(now())
        let key = labels.joined(separator: "\u{1}")
        counts.withLock { all in
            all[key, default: [:]][minute, default: 0] += 1
            // Prune this key's expired minutes as it grows (a few thousand entries at most per key).
            if all[key]!.count > Self.minutesKept { all[key] = all[key]!.filter { $0.key > minute - Int64(Self.minutesKept) } }
        }
    }

    /// Per label set, the events of the last `seconds` (whole minutes, this one included).
    public func counts(lastSeconds seconds: Int) -> [(labels: [String], count: Int)] {
        let from = Self.minute(now()) - Int64(max(1, seconds / 60)) + 1
        return counts.withLock { all in
            all.compactMap { key, minutes in
                let n = minutes.reduce(0) { $0 + ($1.key >= from ? $1.value : 0) }
                return n == 0 ? nil : (key.split(separator: "\u{1}", omittingEmptySubsequences: false).map(String.init), n)
            }
        }
    }

    static func minute(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / 60).rounded(.down)) }
}
