import Dispatch
import Foundation
import VerifyCore

/// In-memory record of the most recent messages, for `/dev/messages` and the dev inbox.
/// Created only in development mode.
///
/// Kept in a ring (recording never shifts the kept messages) with an index by number, so a
/// lookup for one number does not scan the whole log; a caller waiting for a message to one
/// number or verification is woken by that message only.
public final class DevInbox: DevMessageLog, @unchecked Sendable {
    // @unchecked: the ring, the index by number and the waiters are only touched with `lock` (an NSCondition) held.
    private let lock = NSCondition()
    private var ring: [DevMessage?]
    /// Index in `ring` of the oldest kept message.
    private var head = 0
    private var kept = 0
    private let capacity: Int
    private var sequence = 0
    /// Kept messages by number, oldest first.
    private var byNumber: [String: [DevMessage]] = [:]
    /// Callers blocked in `waitForMessages`, by "n:<number>" or "v:<verification id>".
    private var waiters: [String: [DispatchSemaphore]] = [:]

    public init(capacity: Int = 1000) {
        self.capacity = max(1, capacity)
        self.ring = Array(repeating: nil, count: max(1, capacity))
    }

    public func record(_ message: DevMessage) {
        lock.lock()
        if kept == capacity, let oldest = ring[head] {
            byNumber[oldest.to]?.removeFirst()
            if byNumber[oldest.to]?.isEmpty == true { byNumber[oldest.to] = nil }
            ring[head] = message
            head = (head + 1) % capacity
        } else {
            ring[(head + kept) % capacity] = message
            kept += 1
        }
        byNumber[message.to, default: []].append(message)
        sequence += 1
        let woken = (waiters.removeValue(forKey: "n:" + message.to) ?? [])
            + (waiters.removeValue(forKey: "v:" + message.verificationID) ?? [])
        lock.broadcast()
        lock.unlock()
        for waiter in woken { waiter.signal() }
    }

    public func messages(to phoneNumber: String?, limit: Int) -> [DevMessage] {
        messages(to: phoneNumber, verificationID: nil, limit: limit)
    }

    /// Newest first, filtered by number and/or verification.
    public func messages(to phoneNumber: String?, verificationID: String?, limit: Int) -> [DevMessage] {
        lock.lock()
        defer { lock.unlock() }
        return matching(phoneNumber, verificationID, limit)
    }

    /// Like `messages(to:verificationID:limit:)`, but when nothing matches yet, waits up to
    /// `timeout` seconds for a matching message. Without a filter it returns at once.
    public func waitForMessages(to phoneNumber: String?, verificationID: String?, limit: Int, timeout: TimeInterval) -> [DevMessage] {
        guard let key = verificationID.map({ "v:" + $0 }) ?? phoneNumber.map({ "n:" + $0 }) else {
            return messages(to: nil, verificationID: nil, limit: limit)
        }
        let deadline = DispatchTime.now() + timeout
        while true {
            lock.lock()
            let found = matching(phoneNumber, verificationID, limit)
            guard found.isEmpty && DispatchTime.now() < deadline else {
                lock.unlock()
                return found
            }
            let waiter = DispatchSemaphore(value: 0)
            waiters[key, default: []].append(waiter)
            lock.unlock()
            if waiter.wait(timeout: deadline) == .timedOut {
                lock.lock()
                waiters[key]?.removeAll { $0 === waiter }
                if waiters[key]?.isEmpty == true { waiters[key] = nil }
                let last = matching(phoneNumber, verificationID, limit)
                lock.unlock()
                return last
            }
        }
    }

    /// Callers must hold `lock`.
    private func matching(_ phoneNumber: String?, _ verificationID: String?, _ limit: Int) -> [DevMessage] {
        var result: [DevMessage] = []
        func take(_ message: DevMessage) -> Bool {
            if verificationID == nil || message.verificationID == verificationID { result.append(message) }
            return result.count < limit
        }
        if let phoneNumber {
            for message in (byNumber[phoneNumber] ?? []).reversed() where !take(message) { break }
        } else {
            for offset in stride(from: kept - 1, through: 0, by: -1) {
                guard let message = ring[(head + offset) % capacity] else { continue }
                if !take(message) { break }
            }
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
