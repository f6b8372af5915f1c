import API
import Dispatch
import Foundation
import HTTPMessages
import Synchronization
import VerifyCore

/// Follows a ``DevMessageLog`` for one event stream: what was already sent, what is new.
///
/// With a ``DevMessageFeed`` it waits for new messages and numbers them (a message's number is
/// its position in the log, so `Last-Event-ID` resumes exactly); any other log is polled and
/// compared with what was seen.
final class DevMessageCursor: Sendable {
    /// Messages sent when a stream opens.
    static let backlogLimit = 50
    /// Most messages looked at in one step.
    static let batchLimit = 200

    struct Item: Sendable, Equatable {
        /// Position in the log (1 for the first message ever recorded), when the log tells.
        let id: Int?
        let message: DevMessage
    }

    private struct State {
        /// Feed: messages recorded up to here were sent.
        var seen = 0
        /// Polling: keys of the messages in the last look.
        var keys: Set<String> = []
    }

    private let log: any DevMessageLog
    private let feed: (any DevMessageFeed)?
    private let pollInterval: TimeInterval
    private let state = Mutex(State())

    init(log: any DevMessageLog, pollInterval: TimeInterval = 0.5) {
        self.log = log
        self.feed = log as? any DevMessageFeed
        self.pollInterval = pollInterval
    }

    /// The newest messages, oldest first, whatever was sent.
    func recent() -> [DevMessage] {
        log.messages(to: nil, limit: Self.backlogLimit).reversed()
    }

    /// The recent messages, oldest first (or, after `lastEventID`, those since); later calls
    /// to ``next(timeout:)`` return what comes after them.
    func backlog(lastEventID: String?) -> [Item] {
        if let feed {
            let resumeAfter = lastEventID.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            let (count, list) = Self.snapshot(feed) { count in
                // An id beyond the log comes from before a restart: start over.
                if let after = resumeAfter, after >= 0, after <= count { return min(count - after, Self.batchLimit) }
                return min(count, Self.backlogLimit)
            }
            state.withLock { $0.seen = count }
            return Self.items(list, newestID: count)
        }
        let list = log.messages(to: nil, limit: Self.batchLimit)
        state.withLock { $0.keys = Set(list.map(Self.key)) }
        return Self.items(Array(list.prefix(Self.backlogLimit)), newestID: nil)
    }

    /// New messages, oldest first, waiting up to `timeout` for some; [] if none came.
    func next(timeout: TimeInterval) -> [Item] {
        if let feed {
            let seen = state.withLock { $0.seen }
            guard feed.wait(after: seen, timeout: max(0, timeout)) > seen else { return [] }
            let (count, list) = Self.snapshot(feed) { min(max($0 - seen, 0), Self.batchLimit) }
            state.withLock { $0.seen = max($0.seen, count) }
            return Self.items(list, newestID: count)
        }
        Thread.sleep(forTimeInterval: max(0, min(timeout, pollInterval)))
        let list = log.messages(to: nil, limit: Self.batchLimit)
        let fresh = state.withLock { state -> [DevMessage] in
            let fresh = list.filter { !state.keys.contains(Self.key($0)) }
            state.keys = Set(list.map(Self.key))
            return fresh
        }
        return Self.items(fresh, newestID: nil)
    }

    /// The newest `limit(count)` messages with the count they belong to, read consistently:
    /// read again when a message was recorded between reading the count and the list.
    private static func snapshot(_ feed: any DevMessageFeed, limit: (Int) -> Int) -> (Int, [DevMessage]) {
        var count = feed.count
        for _ in 0..<20 {
            let n = limit(count)
            let list = n > 0 ? feed.messages(to: nil, limit: n) : []
            let after = feed.count
            if after == count { return (count, list) }
            count = after
        }
        let n = limit(count)
        return (count, n > 0 ? feed.messages(to: nil, limit: n) : [])
    }

    /// Newest-first `list`, oldest first, numbered down from `newestID` when known.
    private static func items(_ list: [DevMessage], newestID: Int?) -> [Item] {
        list.enumerated().reversed().map { index, message in Item(id: newestID.map { $0 - index }, message: message) }
    }

    private static func key(_ m: DevMessage) -> String {
        "\(m.verificationID)|\(m.code)|\(m.sentAt.timeIntervalSince1970)|\(m.to)"
    }
}
