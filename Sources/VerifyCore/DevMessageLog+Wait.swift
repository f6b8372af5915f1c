import Foundation

/// A ``DevMessageLog`` that can say when messages arrive, so live views (the dev inbox's
/// server-sent events) wait for them instead of polling.
///
/// A separate protocol rather than requirements added to `DevMessageLog`: callers ask with
/// `as? DevMessageFeed` and fall back to polling logs that cannot wait.
public protocol DevMessageFeed: DevMessageLog {
    /// How many messages were recorded so far; only ever grows (it is not the number kept).
    var count: Int { get }
    /// Blocks until `count` exceeds `seen` or `timeout` passes, and returns `count`.
    func wait(after seen: Int, timeout: TimeInterval) -> Int
}
