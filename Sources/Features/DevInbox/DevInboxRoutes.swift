import API
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
struct DevInboxRoutes: RouteCollection {
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
            "to": .string(m.to), "channel": .string(m.channel.rawValue), "body": .string(m.body), "code": .string(m.code),
            "verification_id": .string(m.verificationID), "purpose": .string(m.purpose.rawValue),
            "gateway": .string(m.gateway), "sent_at": .string(RFC3339.format(m.sentAt)),
        ]
    }
}
