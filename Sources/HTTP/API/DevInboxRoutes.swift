import Dispatch
import Foundation
import HTTPMessages
import Synchronization
import VerifyCore

/// The dev inbox, development mode only (registered next to ``DevRoutes``):
/// - `GET /dev/inbox`: the live HTML page (``DevInboxPage``);
/// - `GET /dev/inbox/events`: server-sent events. First the recent messages, oldest first
///   (`event: message`, data in the `/dev/messages` shape, `id:` the message's position in the
///   log when the log is a ``DevMessageFeed``; `Last-Event-ID` then resumes without repeats),
///   the status of their verifications (`event: status`), and `event: ready`; then each new
///   message as it is sent, each change of a shown verification's status, and a heartbeat
///   comment after `heartbeat` seconds of silence.
struct DevInboxRoutes: Sendable {
    let messages: any DevMessageLog
    let service: VerificationService
    let random: any RandomSource
    /// Seconds of silence before a heartbeat comment. Also bounds how long a departed client's
    /// stream lives: the transport notices a closed socket only when it writes (twice).
    var heartbeat: TimeInterval = 15
    /// How often a log that cannot wait (not a ``DevMessageFeed``) is polled.
    var pollInterval: TimeInterval = 0.5
    /// How often the shown verifications that may still change are looked up.
    var statusInterval: TimeInterval = 2

    func register(in router: inout Router) {
        let messages = self.messages, service = self.service, random = self.random
        let heartbeat = self.heartbeat, pollInterval = self.pollInterval, statusInterval = self.statusInterval

        router.add("GET", "/dev/inbox") { _, _ in
            let nonce = Hex.encode(random.bytes(16))
            return HTTPResponse(
                status: 200,
                headers: [
                    "Content-Type": "text/html; charset=utf-8",
                    "Content-Security-Policy": DevInboxPage.contentSecurityPolicy(nonce: nonce),
                    "Cache-Control": "no-store",
                    "X-Content-Type-Options": "nosniff",
                    "Referrer-Policy": "no-referrer",
                    "X-Frame-Options": "DENY",
                ],
                body: Array(DevInboxPage.html(nonce: nonce).utf8))
        }

        router.add("GET", "/dev/inbox/events") { request, _ in
            let source = DevInboxEventSource(
                cursor: DevMessageCursor(log: messages, pollInterval: pollInterval),
                statuses: VerificationStatusWatch(service: service, interval: statusInterval))
            let stream = EventStream(initial: source.initial(lastEventID: request.headers["Last-Event-ID"]), heartbeat: heartbeat) {
                source.next(timeout: $0)
            }
            return HTTPResponse(status: 200, headers: EventStream.headers, stream: stream)
        }
    }

    /// A message as `GET /dev/messages` shows it.
    static func messageJSON(_ m: DevMessage) -> JSONValue {
        [
            "to": .string(m.to), "body": .string(m.body), "code": .string(m.code),
            "verification_id": .string(m.verificationID), "purpose": .string(m.purpose.rawValue),
            "gateway": .string(m.gateway), "sent_at": .string(RFC3339.format(m.sentAt)),
        ]
    }
}

/// The events of one dev inbox stream: messages from a ``DevMessageCursor``, then the status of
/// their verifications from a ``VerificationStatusWatch``.
struct DevInboxEventSource: Sendable {
    let cursor: DevMessageCursor
    let statuses: VerificationStatusWatch

    /// The first events: the backlog, the status of the recent messages' verifications, `ready`.
    func initial(lastEventID: String?) -> [ServerSentEvent] {
        let backlog = cursor.backlog(lastEventID: lastEventID)
        // After a resume the page still shows older messages: keep their status current too.
        let recent = cursor.recent().map(\.verificationID)
        var events = backlog.map(Self.event)
        events += statuses.shown(recent + backlog.map(\.message.verificationID))
        events.append(ServerSentEvent(event: "ready", data: #"{"backlog":\#(backlog.count)}"#))
        return events
    }

    /// New messages (with their verifications' status) and status changes, waiting up to
    /// `timeout` for either; [] when there were none.
    func next(timeout: TimeInterval) -> [ServerSentEvent]? {
        let items = cursor.next(timeout: min(timeout, statuses.secondsUntilDue()))
        return items.map(Self.event) + statuses.shown(items.map(\.message.verificationID)) + statuses.changes()
    }

    static func event(_ item: DevMessageCursor.Item) -> ServerSentEvent {
        ServerSentEvent(id: item.id.map(String.init), event: "message", data: DevInboxRoutes.messageJSON(item.message).encodedString())
    }
}

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

/// The status of the verifications a stream has shown: each once when first shown, then again
/// whenever it changes, looked up at most every `interval` while it can still change.
final class VerificationStatusWatch: Sendable {
    static let maxWatched = 100
    /// Statuses that never change again ("unknown": the verification is not in the store).
    static let final: Set<String> = ["approved", "canceled", "expired", "max_attempts_reached", "unknown"]

    private struct State {
        /// Watched ids, oldest first, with the status last sent.
        var order: [String] = []
        var last: [String: JSONValue] = [:]
        var nextCheck: UInt64 = 0
    }

    private let service: VerificationService
    private let interval: TimeInterval
    private let state = Mutex(State())

    init(service: VerificationService, interval: TimeInterval) {
        self.service = service
        self.interval = interval
        let first = DispatchTime.now().uptimeNanoseconds + Self.nanoseconds(interval)
        state.withLock { $0.nextCheck = first }
    }

    /// Status events for verifications not shown before, and starts watching them.
    func shown(_ ids: [String]) -> [ServerSentEvent] {
        var fresh: [String] = []
        state.withLock { state in
            for id in ids where state.last[id] == nil && !fresh.contains(id) { fresh.append(id) }
        }
        var events: [ServerSentEvent] = []
        for id in fresh {
            // Unreadable now (store down): watched anyway, so a later look reports it.
            let status = lookUp(id) ?? .null
            if status != .null { events.append(Self.event(id, status)) }
            state.withLock { state in
                state.order.append(id)
                state.last[id] = status
                if state.order.count > Self.maxWatched {
                    for gone in state.order.prefix(state.order.count - Self.maxWatched) { state.last[gone] = nil }
                    state.order.removeFirst(state.order.count - Self.maxWatched)
                }
            }
        }
        return events
    }

    /// When due, status events for watched verifications whose status changed.
    func changes() -> [ServerSentEvent] {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { state -> [String]? in
            guard now >= state.nextCheck else { return nil }
            state.nextCheck = now + Self.nanoseconds(interval)
            return state.order.filter { id in
                guard let status = state.last[id]?["status"]?.stringValue else { return true }
                return !Self.final.contains(status)
            }
        }
        guard let due else { return [] }
        var events: [ServerSentEvent] = []
        for id in due {
            guard let status = lookUp(id) else { continue }
            let changed = state.withLock { state -> Bool in
                guard let previous = state.last[id], previous != status else { return false }
                state.last[id] = status
                return true
            }
            if changed { events.append(Self.event(id, status)) }
        }
        return events
    }

    /// Seconds until ``changes()`` looks again.
    func secondsUntilDue() -> TimeInterval {
        let next = state.withLock { $0.nextCheck }
        let now = DispatchTime.now().uptimeNanoseconds
        return next > now ? Double(next - now) / 1e9 : 0
    }

    /// The status as the page shows it; nil when it cannot be read now (tried again later).
    private func lookUp(_ id: String) -> JSONValue? {
        do {
            let view = try service.get(id: id, purposes: Set(Purpose.allCases))
            return [
                "status": .string(view.status.rawValue),
                "attempts_remaining": .int(Int64(view.verification.attemptsRemaining)),
                "expires_at": .string(RFC3339.format(view.verification.expiresAt)),
                "delivery": .optional(view.delivery?.status.rawValue),
            ]
        } catch let error as VerifyError where error.code == .notFound {
            return ["status": "unknown"]
        } catch {
            return nil
        }
    }

    private static func event(_ id: String, _ status: JSONValue) -> ServerSentEvent {
        var members = [JSONMember("verification_id", .string(id))]
        if case .object(let rest) = status { members += rest }
        return ServerSentEvent(event: "status", data: JSONValue.object(members).encodedString())
    }

    private static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        UInt64(max(0, seconds) * 1e9)
    }
}
