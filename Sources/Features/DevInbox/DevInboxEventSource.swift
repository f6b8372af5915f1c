import API
import Dispatch
import Foundation
import HTTPMessages
import Synchronization
import VerifyCore

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
