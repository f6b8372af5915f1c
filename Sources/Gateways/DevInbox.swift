import Foundation
import VerifyCore

/// In-memory record of the most recent messages, for `/dev/messages` and the dev inbox.
/// Created only in development mode.
public final class DevInbox: DevMessageLog, @unchecked Sendable {
    private let lock = NSCondition()
    private var items: [DevMessage] = []
    private let capacity: Int
    private var sequence = 0

    public init(capacity: Int = 1000) {
        self.capacity = capacity
    }

    public func record(_ message: DevMessage) {
        lock.lock()
        items.append(message)
        if items.count > capacity { items.removeFirst(items.count - capacity) }
        sequence += 1
        lock.broadcast()
        lock.unlock()
    }

    public func messages(to phoneNumber: String?, limit: Int) -> [DevMessage] {
        lock.lock()
        defer { lock.unlock() }
        var result: [DevMessage] = []
        for message in items.reversed() where phoneNumber == nil || message.to == phoneNumber {
            result.append(message)
            if result.count >= limit { break }
        }
        return result
    }

    /// Number of messages recorded so far (monotonic), for live updates.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return sequence
    }

    /// Blocks until more than `seen` messages were recorded or `timeout` passes; returns the count.
    public func wait(after seen: Int, timeout: TimeInterval) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while sequence <= seen && lock.wait(until: deadline) {}
        return sequence
    }
}

/// Lets the dev inbox stream wake on new messages instead of polling.
extension DevInbox: DevMessageFeed {}
