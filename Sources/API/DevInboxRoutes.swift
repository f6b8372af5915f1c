import Foundation
import HTTPTypes
import Synchronization
import VerifyCore

/// The dev inbox, development mode only (registered next to ``DevRoutes``):
/// - `GET /dev/inbox`: the live HTML page (``DevInboxPage``);
/// - `GET /dev/inbox/events`: server-sent events, the recent messages oldest first then new ones
///   as they are sent (`event: message`, data in the `/dev/messages` shape), one `event: ready`
///   after the backlog, heartbeat comments while idle; `Last-Event-ID` resumes without repeats;
/// - `GET /dev/inbox/status?ids=ver_a,ver_b`: each verification's status, for the page.
struct DevInboxRoutes: Sendable {
    let messages: any DevMessageLog
    let service: VerificationService
    let random: any RandomSource
    /// Seconds of silence before a heartbeat comment; also bounds how long a departed client's
    /// stream lives, as the transport notices a closed socket only when it writes.
    var heartbeat: TimeInterval = 15
    /// How often a log that cannot wait (not a ``DevMessageFeed``) is polled.
    var pollInterval: TimeInterval = 0.5

    static let maxStatusIDs = 100

    func register(in router: inout Router) {
        let messages = self.messages, service = self.service, random = self.random
        let heartbeat = self.heartbeat, pollInterval = self.pollInterval

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
            let cursor = DevMessageCursor(log: messages, pollInterval: pollInterval)
            var initial = cursor.backlog(lastEventID: request.headers["Last-Event-ID"])
            initial.append(ServerSentEvent(event: "ready", data: #"{"backlog":\#(initial.count)}"#))
            let stream = EventStream(initial: initial, heartbeat: heartbeat) { timeout in
                cursor.next(timeout: timeout)
            }
            return HTTPResponse(status: 200, headers: EventStream.headers, stream: stream)
        }

        router.add("GET", "/dev/inbox/status") { request, _ in
            var ids: [String] = []
            for part in (request.query["ids"] ?? "").split(separator: ",") {
                let id = part.trimmingCharacters(in: .whitespaces)
                guard !id.isEmpty, !ids.contains(id) else { continue }
                guard id.utf8.count <= 80, id.utf8.allSatisfy(Self.isIDByte) else {
                    throw VerifyError(.invalidRequest, "ids must be verification ids separated by commas", details: ["field": "ids"])
                }
                ids.append(id)
            }
            guard ids.count <= Self.maxStatusIDs else {
                throw VerifyError(
                    .invalidRequest, "at most \(Self.maxStatusIDs) ids at a time",
                    details: ["field": "ids", "max": .int(Int64(Self.maxStatusIDs))])
            }
            var members: [JSONMember] = []
            for id in ids {
                do {
                    members.append(JSONMember(id, Self.statusJSON(try service.get(id: id, purposes: Set(Purpose.allCases)))))
                } catch let error as VerifyError where error.code == .notFound {
                    members.append(JSONMember(id, ["status": "unknown"]))
                }
            }
            return JSONResponse.make(200, ["verifications": .object(members)], headers: ["Cache-Control": "no-store"])
        }
    }

    static func statusJSON(_ view: VerificationView) -> JSONValue {
        [
            "status": .string(view.status.rawValue),
            "purpose": .string(view.verification.purpose.rawValue),
            "attempts_remaining": .int(Int64(view.verification.attemptsRemaining)),
            "expires_at": .string(RFC3339.format(view.verification.expiresAt)),
            "delivery": .optional(view.delivery?.status.rawValue),
        ]
    }

    /// A message as `GET /dev/messages` shows it.
    static func messageJSON(_ m: DevMessage) -> JSONValue {
        [
            "to": .string(m.to), "body": .string(m.body), "code": .string(m.code),
            "verification_id": .string(m.verificationID), "purpose": .string(m.purpose.rawValue),
            "gateway": .string(m.gateway), "sent_at": .string(RFC3339.format(m.sentAt)),
        ]
    }

    private static func isIDByte(_ c: UInt8) -> Bool {
        (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 || c == 45
    }
}

/// Follows a ``DevMessageLog`` for one event stream: what was already sent, what is new.
///
/// With a ``DevMessageFeed`` it waits for new messages and numbers them (the event id is the
/// message's position in the log, so `Last-Event-ID` resumes exactly); any other log is polled
/// and compared with what was seen.
final class DevMessageCursor: Sendable {
    /// Messages sent when a stream opens.
    static let backlogLimit = 50
    /// Most messages looked at in one step.
    static let batchLimit = 200

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

    /// The recent messages as events, oldest first (or, after `lastEventID`, those since).
    func backlog(lastEventID: String?) -> [ServerSentEvent] {
        if let feed {
            let resumeAfter = lastEventID.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            let (count, list) = Self.snapshot(feed) { count in
                if let after = resumeAfter, after >= 0, after <= count { return min(count - after, Self.batchLimit) }
                return min(count, Self.backlogLimit)
            }
            state.withLock { $0.seen = count }
            return Self.events(list, newestID: count)
        }
        let list = log.messages(to: nil, limit: Self.batchLimit)
        state.withLock { $0.keys = Set(list.map(Self.key)) }
        return Self.events(Array(list.prefix(Self.backlogLimit)), newestID: nil)
    }

    /// New messages as events, oldest first, waiting up to `timeout` for some; [] if none came.
    func next(timeout: TimeInterval) -> [ServerSentEvent]? {
        if let feed {
            let seen = state.withLock { $0.seen }
            guard feed.wait(after: seen, timeout: timeout) > seen else { return [] }
            let (count, list) = Self.snapshot(feed) { min(max($0 - seen, 0), Self.batchLimit) }
            state.withLock { $0.seen = max($0.seen, count) }
            return Self.events(list, newestID: count)
        }
        Thread.sleep(forTimeInterval: max(0, min(timeout, pollInterval)))
        let list = log.messages(to: nil, limit: Self.batchLimit)
        let fresh = state.withLock { state -> [DevMessage] in
            let fresh = list.filter { !state.keys.contains(Self.key($0)) }
            state.keys = Set(list.map(Self.key))
            return fresh
        }
        return Self.events(fresh, newestID: nil)
    }

    /// The newest `limit(count)` messages with the count they belong to, read consistently:
    /// retried when a message was recorded between reading the count and the list.
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

    /// Newest-first `list` as events, oldest first; ids count down from `newestID` when known.
    private static func events(_ list: [DevMessage], newestID: Int?) -> [ServerSentEvent] {
        list.enumerated().reversed().map { index, message in
            ServerSentEvent(
                id: newestID.map { String($0 - index) }, event: "message",
                data: DevInboxRoutes.messageJSON(message).encodedString())
        }
    }

    private static func key(_ m: DevMessage) -> String {
        "\(m.verificationID)|\(m.code)|\(m.sentAt.timeIntervalSince1970)|\(m.to)"
    }
}
