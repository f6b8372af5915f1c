import HTTPMessages

/// Per-request state that lives from the first access-handler call to the
/// request-completed notification (held in MHD's `req_cls` via `Unmanaged`).
///
/// Only touched by the one MHD worker thread that owns the connection, so it needs no lock.
final class RequestState {
    /// Body bytes received so far.
    var body: [UInt8] = []
    /// The body is (or is announced to be) over the limit: answer 413, store nothing more.
    var tooLarge = false
    /// Bytes of an oversized body read and dropped so far.
    var discardedBytes = 0
    /// The request was refused on its head: body bytes are dropped as they come.
    var discarding = false
    /// A response has been queued; later calls only drop upload data.
    var responded = false
    /// The header fields, read once when the head arrived (framing check, then the request).
    var headers: HTTPHeaders?
}
