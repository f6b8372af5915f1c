import CMicroHTTPD
import HTTPMessages

/// Turns an ``HTTPResponse`` into an MHD response and queues it on a connection.
///
/// Called only from the MHD worker thread that owns the connection, inside the access handler.
enum ResponseWriter {
    /// The fixed 413 answer for bodies over the limit; the responder is never called for it.
    static func payloadTooLarge(limit: Int) -> HTTPResponse {
        serverError(413, #"{"error":{"code":"payload_too_large","message":"request body exceeds \#(limit) bytes","details":{}}}"#)
    }

    /// The 400 answer for a head whose body framing is ambiguous (see ``FramingCheck``).
    static func ambiguousFraming(_ problem: String) -> HTTPResponse {
        // `problem` is one of FramingCheck's fixed sentences (no quotes or backslashes to escape).
        serverError(400, #"{"error":{"code":"invalid_request","message":""# + problem + #"","details":{}}}"#)
    }

    /// A JSON error in the API's shape, answered before any responder runs, so it makes its own
    /// request id (every response has one).
    private static func serverError(_ status: Int, _ json: String) -> HTTPResponse {
        let id = "req_" + String(UInt64.random(in: 0...UInt64.max), radix: 16) + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return HTTPResponse(
            status: status,
            headers: ["Content-Type": "application/json; charset=utf-8", "X-Request-Id": id],
            body: Array(json.utf8)
        )
    }

    /// Queues `response`; returns false when MHD refused it (MHD then closes the connection).
    /// `closeConnection` adds `Connection: close` (used while the server drains).
    static func queue(
        _ response: HTTPResponse, on connection: OpaquePointer, server: HTTPServer, closeConnection: Bool
    ) -> Bool {
        guard let mhdResponse = makeResponse(response.body, connection: connection, server: server) else {
            return false
        }
        defer { MHD_destroy_response(mhdResponse) }
        for field in response.headers {
            // MHD rejects fields with CR/LF and ones it manages itself (Content-Length);
            // dropping them is safer than failing the whole response.
            _ = MHD_add_response_header(mhdResponse, field.name, field.value)
        }
        if closeConnection {
            _ = MHD_add_response_header(mhdResponse, "Connection", "close")
        }
        let status = (100...999).contains(response.status) ? response.status : 500
        return MHD_queue_response(connection, UInt32(status), mhdResponse) == .YES
    }

    private static func makeResponse(
        _ body: HTTPResponse.Body, connection: OpaquePointer, server: HTTPServer
    ) -> OpaquePointer? {
        switch body {
        case .bytes(let bytes):
            return bytes.withUnsafeBytes { buffer in
                // MUST_COPY: MHD keeps its own copy, the Swift array may go away right after.
                MHD_create_response_from_buffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .stream(let stream):
            let pump = StreamPump(
                stream: stream, connection: ConnectionHandle(pointer: connection), registry: server.streams)
            let context = Unmanaged.passRetained(pump).toOpaque()
            let response = MHD_create_response_from_callback(
                pv_mhd_size_unknown(), 4096,
                { context, _, buffer, max in
                    guard let context, let buffer else { return pv_mhd_content_reader_end_with_error() }
                    let pump = Unmanaged<StreamPump>.fromOpaque(context).takeUnretainedValue()
                    return pump.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max))
                },
                context,
                { context in
                    guard let context else { return }
                    Unmanaged<StreamPump>.fromOpaque(context).takeRetainedValue().detach()
                })
            if response == nil {
                Unmanaged<StreamPump>.fromOpaque(context).release()
                pump.detach()
            }
            return response
        }
    }
}
