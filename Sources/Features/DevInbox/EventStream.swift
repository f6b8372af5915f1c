import API
import Dispatch
import Foundation
import HTTPMessages
import Synchronization

/// A server-sent-events response body, pulled by the transport (see ``HTTPBodyStream``).
///
/// The first chunk carries the reconnection delay and the events known at connection time.
/// Later, each `next()` asks `source` for new events, waiting at most `slice` seconds, so a
/// closed stream is noticed quickly and the transport's queue is never held for long; when
/// nothing was sent for `heartbeat` seconds it sends a comment. Those heartbeats are also what
/// reveals a departed client: the transport only learns of a closed socket when it writes.
/// `source` returns new events, `[]` when none came within the timeout, or nil to end.
final class EventStream: HTTPBodyStream {
    typealias Source = @Sendable (_ timeout: TimeInterval) -> [ServerSentEvent]?

    private struct State {
        var started = false
        var closed = false
        var ended = false
        /// Uptime in nanoseconds of the last bytes returned.
        var lastSent: UInt64 = 0
    }

    private let state = Mutex(State())
    private let initial: [ServerSentEvent]
    private let retryMilliseconds: Int?
    private let heartbeat: TimeInterval
    private let slice: TimeInterval
    private let source: Source

    init(
        initial: [ServerSentEvent] = [], retryMilliseconds: Int? = 3000, heartbeat: TimeInterval = 15,
        slice: TimeInterval = 1, source: @escaping Source
    ) {
        self.initial = initial
        self.retryMilliseconds = retryMilliseconds
        self.heartbeat = heartbeat
        self.slice = slice
        self.source = source
    }

    /// The standard response headers for an event stream.
    static var headers: HTTPHeaders {
        [
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",
            "X-Content-Type-Options": "nosniff",
        ]
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    func next() -> [UInt8]? {
        let (first, done) = state.withLock { state -> (Bool, Bool) in
            if state.closed || state.ended { return (false, true) }
            defer { state.started = true }
            return (!state.started, false)
        }
        if done { return nil }
        if first {
            var text = retryMilliseconds.map { "retry: \($0)\n\n" } ?? ""
            text += ServerSentEvent.comment("connected")
            for event in initial { text += event.encoded }
            return sent(text)
        }
        let now = DispatchTime.now().uptimeNanoseconds
        let last = state.withLock { $0.lastSent }
        let sinceLast = Double(now &- last) / 1e9
        let wait = max(0.001, min(slice, heartbeat - sinceLast))
        guard let events = source(wait) else {
            state.withLock { $0.ended = true }
            return nil
        }
        if isClosed { return nil }
        if !events.isEmpty { return sent(events.map(\.encoded).joined()) }
        let idle = Double(DispatchTime.now().uptimeNanoseconds &- last) / 1e9
        if idle >= heartbeat { return sent(ServerSentEvent.comment("heartbeat")) }
        return []
    }

    func close() {
        state.withLock { $0.closed = true }
    }

    private func sent(_ text: String) -> [UInt8] {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { $0.lastSent = now }
        return Array(text.utf8)
    }
}
