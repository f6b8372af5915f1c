import CMicroHTTPD
import HTTPMessages

/// MHD's access handler: forwards to the ``HTTPServer`` passed as `cls`.
func mhdAccessHandler(
    cls: UnsafeMutableRawPointer?, connection: OpaquePointer?, url: UnsafePointer<CChar>?,
    method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?,
    uploadDataSize: UnsafeMutablePointer<Int>?, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let uploadDataSize, let requestContext else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    return server.handle(
        connection: connection, url: url, method: method, uploadData: uploadData,
        uploadDataSize: uploadDataSize, requestContext: requestContext)
}

/// MHD's request-completed notice: frees the per-request state and ends the in-flight count.
func mhdRequestCompleted(
    cls: UnsafeMutableRawPointer?, connection: OpaquePointer?,
    requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, reason: MHD_RequestTerminationCode
) {
    guard let cls else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    if let connection { server.headerDeadlines.requestEnded(connection) }
    guard let requestContext, let state = requestContext.pointee else { return }
    requestContext.pointee = nil
    Unmanaged<RequestState>.fromOpaque(state).release()
    server.inFlight.subtract(1, ordering: .releasing)
}

extension HTTPServer {
    /// How much of an oversized chunked body is read and dropped before the connection is
    /// closed without a response.
    static let maxDiscardedBytes = 1 << 20

    /// One access-handler call, on the MHD worker thread that owns `connection`.
    ///
    /// MHD calls this once when the head has arrived, once per piece of body, and once more
    /// with no data. Queueing a response on the first call would make MHD close the connection
    /// (it has not read the body), so the first call only allocates state, except for a body
    /// announced as too large, which is refused at once without reading it.
    func handle(
        connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>,
        requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let limit = configuration.maxBodyBytes
        guard let existing = requestContext.pointee else {
            return begin(connection: connection, url: url, requestContext: requestContext, limit: limit)
        }
        let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0  // consumed, or deliberately dropped
            return receive(uploadData, size: size, into: state, limit: limit)
        }
        guard !state.responded else { return .YES }
        state.responded = true
        if state.tooLarge {
            return send(tooLarge(url, limit: limit), on: connection)
        }
        let request = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "GET",
            path: url.map { String(cString: $0) } ?? "/",
            query: ConnectionReader.query(of: connection),
            headers: state.headers ?? ConnectionReader.headers(of: connection),
            body: state.body,
            remoteAddress: ConnectionReader.remoteAddress(of: connection)
        )
        state.body = []
        state.headers = nil
        return send(responder.respond(to: request), on: connection)
    }

    /// The first call, once the head has arrived: allocates the request's state, reads the head,
    /// and refuses ambiguous framing or a body announced as too large before any body is read.
    @inline(__always)
    private func begin(
        connection: OpaquePointer, url: UnsafePointer<CChar>?, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>, limit: Int
    ) -> MHD_Result {
        inFlight.add(1, ordering: .relaxed)
        headerDeadlines.headComplete(connection)
        let state = RequestState()
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
        // Read once: the head is complete now, and the request is built from the same fields.
        let headers = ConnectionReader.headers(of: connection)
        state.headers = headers
        if let problem = FramingCheck.problem(headers.fields) {
            // Ambiguous framing (a request-smuggling precondition: a proxy may frame the body
            // another way). Refused before any body is read, and the connection is closed
            // because where the next request starts is unknown.
            state.responded = true
            state.discarding = true
            return send(ResponseWriter.ambiguousFraming(problem), on: connection, close: true)
        }
        if let length = ConnectionReader.header("Content-Length", of: connection),
           let announced = UInt64(length.trimmingASCIISpaces()), announced > UInt64(limit) {
            state.tooLarge = true
            state.responded = true
            return send(tooLarge(url, limit: limit), on: connection)
        }
        return .YES
    }

    /// A piece of body: kept, or dropped when the request is already refused or over the limit.
    @inline(__always)
    private func receive(_ uploadData: UnsafePointer<CChar>?, size: Int, into state: RequestState, limit: Int) -> MHD_Result {
        if state.discarding { return .YES }
        if state.tooLarge {
            // MHD 0.9.75 refuses to queue a response before the whole body has been read,
            // so the rest of an oversized chunked body is read and dropped, then answered
            // with 413. A client that keeps sending far beyond the limit is cut off instead.
            state.discardedBytes += size
            return state.discardedBytes > Self.maxDiscardedBytes ? .NO : .YES
        }
        guard state.body.count + size <= limit else {
            state.tooLarge = true
            state.discardedBytes = state.body.count + size
            state.body = []
            return .YES
        }
        if let uploadData {
            UnsafeRawPointer(uploadData).withMemoryRebound(to: UInt8.self, capacity: size) {
                state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
            }
        }
        return .YES
    }

    /// The responder's 413 for this path, or the server's own.
    private func tooLarge(_ url: UnsafePointer<CChar>?, limit: Int) -> HTTPResponse {
        responder.bodyTooLarge(path: url.map { String(cString: $0) } ?? "/", limit: limit)
            ?? ResponseWriter.payloadTooLarge(limit: limit)
    }

    private func send(_ response: HTTPResponse, on connection: OpaquePointer, close: Bool = false) -> MHD_Result {
        let close = close || draining.load(ordering: .relaxed)
        return ResponseWriter.queue(response, on: connection, server: self, closeConnection: close)
            ? .YES : .NO
    }
}

extension String {
    fileprivate func trimmingASCIISpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = lastIndex(where: { !isSpace($0) })!
        return self[first...last]
    }
}
