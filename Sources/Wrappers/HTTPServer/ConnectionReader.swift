import CMicroHTTPD
import HTTPMessages

/// Reads the parsed request head (headers, query, peer address) out of an MHD connection.
///
/// Called only from the MHD worker thread that owns `connection`, during the access handler.
enum ConnectionReader {
    /// All request header fields in arrival order.
    static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        var fields: [(String, String)] = []
        fields.reserveCapacity(8)  // a typical API request's head: no regrowth
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { context, _, key, keySize, value, valueSize in
                guard let context, let key else { return .YES }
                let name = ConnectionReader.text(key, keySize)
                let value = value.map { ConnectionReader.text($0, valueSize) } ?? ""
                context.assumingMemoryBound(to: [(String, String)].self).pointee.append((name, value))
                return .YES
            }, pointer)
        }
        return HTTPHeaders(fields)
    }

    /// Decoded query parameters; the first value wins for repeated names.
    static func query(of connection: OpaquePointer) -> [String: String] {
        var query: [String: String] = [:]
        withUnsafeMutablePointer(to: &query) { pointer in
            _ = MHD_get_connection_values_n(
                connection, .GET_ARGUMENT_KIND,
                { context, _, key, keySize, value, valueSize in
                    guard let context, let key else { return .YES }
                    let name = QueryDecoding.decode(ConnectionReader.bytes(key, keySize))
                    let value = value.map { QueryDecoding.decode(ConnectionReader.bytes($0, valueSize)) } ?? ""
                    let query = context.assumingMemoryBound(to: [String: String].self)
                    if query.pointee[name] == nil { query.pointee[name] = value }
                    return .YES
                }, pointer)
        }
        return query
    }

    /// The value of one request header, or nil (MHD compares names case-insensitively).
    static func header(_ name: String, of connection: OpaquePointer) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    /// The peer's IP address as text ("127.0.0.1", "::1"); IPv4-mapped IPv6 comes out as IPv4.
    static func remoteAddress(of connection: OpaquePointer) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let length = pv_mhd_client_ip(connection, buffer.baseAddress, buffer.count)
            guard length > 0, let base = buffer.baseAddress else { return "" }
            return String(cString: base)
        }
    }

    fileprivate static func bytes(_ pointer: UnsafePointer<CChar>, _ count: Int) -> UnsafeBufferPointer<UInt8> {
        // CChar and UInt8 may alias each other, so viewing the bytes as UInt8 is allowed.
        UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: count)
    }

    fileprivate static func text(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
        String(decoding: bytes(pointer, count), as: UTF8.self)
    }
}
