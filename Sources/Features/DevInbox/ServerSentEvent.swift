import API
import Dispatch
import Foundation
import HTTPMessages
import Synchronization

/// One server-sent event (the `text/event-stream` format of the HTML standard).
struct ServerSentEvent: Sendable, Equatable {
    var id: String?
    var event: String?
    var data: String

    init(id: String? = nil, event: String? = nil, data: String) {
        self.id = id
        self.event = event
        self.data = data
    }

    /// The event on the wire: `id:`, `event:`, one `data:` line per line of data, a blank line.
    var encoded: String {
        var out = ""
        if let id { out += "id: \(Self.singleLine(id))\n" }
        if let event { out += "event: \(Self.singleLine(event))\n" }
        let lines = data.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)
        for line in lines { out += "data: \(line.replacingOccurrences(of: "\r", with: ""))\n" }
        return out + "\n"
    }

    /// A comment line, ignored by clients; keeps idle connections (and proxies) alive.
    static func comment(_ text: String) -> String { ": \(singleLine(text))\n\n" }

    private static func singleLine(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" })
    }
}
