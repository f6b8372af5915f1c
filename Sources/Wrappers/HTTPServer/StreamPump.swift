import CMicroHTTPD
import Dispatch
import Glibc
import HTTPMessages
import Synchronization

/// Feeds an ``HTTPBodyStream`` to MHD as a chunked body without blocking MHD's worker threads.
///
/// `HTTPBodyStream.next()` may block (for example while a server-sent-events producer waits for
/// an event). Calling it on an MHD worker would freeze every connection of that worker, so the
/// content-reader callback only copies bytes already fetched. When none are ready it suspends
/// the connection (`MHD_suspend_connection`, allowed from the reader callback) and asks a
/// dedicated serial queue to call `next()`; the queue resumes the connection when the chunk,
/// or the end of the stream, has arrived. Empty chunks ("nothing yet") are retried on that
/// queue, never on MHD's threads.
final class StreamPump: Sendable {
    private struct State {
        /// Fetched bytes not yet handed to MHD start at `offset`.
        var pending: [UInt8] = []
        var offset = 0
        /// No more bytes will be fetched: the stream ended, or the server is shutting down.
        var ended = false
        /// A `next()` call is running on `queue`.
        var fetching = false
        /// The connection is suspended and waits for `resume`.
        var suspended = false
        /// `stream.close()` has been called.
        var closed = false
    }

    private let stream: any HTTPBodyStream
    private let connection: ConnectionHandle
    private let registry: StreamRegistry
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "HTTPServer.StreamPump")

    init(stream: any HTTPBodyStream, connection: ConnectionHandle, registry: StreamRegistry) {
        self.stream = stream
        self.connection = connection
        self.registry = registry
        if !registry.register(self) {
            // The server is already shutting down: send an empty body and end.
            state.withLock { $0.ended = true }
        }
    }

    /// MHD's content-reader callback: copies up to `buffer.count` bytes, or returns 0 after
    /// suspending the connection, or MHD's end-of-stream marker.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let (result, startFetch) = state.withLock { state -> (Int, Bool) in
            let available = state.pending.count - state.offset
            if available > 0 {
                let count = min(buffer.count, available)
                let offset = state.offset
                state.pending.withUnsafeBytes { source in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + count]))
                }
                state.offset += count
                if state.offset == state.pending.count {
                    state.pending.removeAll(keepingCapacity: true)
                    state.offset = 0
                }
                return (count, false)
            }
            if state.ended { return (pv_mhd_content_reader_end_of_stream(), false) }
            // Suspend while holding the lock so the fetcher cannot resume before we suspended.
            MHD_suspend_connection(connection.pointer)
            state.suspended = true
            let start = !state.fetching
            state.fetching = true
            return (0, start)
        }
        if startFetch {
            queue.async { self.fetch() }
        }
        return result
    }

    /// Ends the stream early (server shutdown): bytes already fetched are still sent, then
    /// the chunked body is terminated properly.
    func finish() {
        let shouldClose = state.withLock { state -> Bool in
            state.ended = true
            resumeIfSuspended(&state)
            defer { state.closed = true }
            return !state.closed
        }
        if shouldClose { stream.close() }
    }

    /// MHD freed the response (body sent or client gone): close the stream exactly once.
    func detach() {
        let shouldClose = state.withLock { state -> Bool in
            state.ended = true
            state.pending = []
            defer { state.closed = true }
            return !state.closed
        }
        registry.unregister(self)
        if shouldClose { stream.close() }
    }

    /// Runs on `queue`: waits for the next non-empty chunk or the end, then resumes MHD.
    private func fetch() {
        while true {
            let chunk = stream.next()
            let done = state.withLock { state -> Bool in
                if state.ended {
                    // finish() or detach() won the race; the chunk is no longer wanted.
                } else if let chunk {
                    if chunk.isEmpty { return false }
                    state.pending.append(contentsOf: chunk)
                } else {
                    state.ended = true
                }
                state.fetching = false
                resumeIfSuspended(&state)
                return true
            }
            if done { return }
            // "Nothing ready yet": a well-behaved stream blocked inside next(); this pause only
            // stops a non-blocking one from spinning a core.
            usleep(1_000)
        }
    }

    private func resumeIfSuspended(_ state: inout State) {
        guard state.suspended else { return }
        state.suspended = false
        MHD_resume_connection(connection.pointer)
    }
}
