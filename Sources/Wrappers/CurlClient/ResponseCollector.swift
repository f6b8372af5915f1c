/// Accumulates one transfer's response headers and body from libcurl's callbacks, enforcing
/// size limits. Used only on the thread running `curl_easy_perform`.
final class ResponseCollector {
    /// Largest header block accepted (all lines of the final response).
    static let maxHeaderBytes = 64 * 1024
    private static let statusLinePrefix = Array("HTTP/".utf8)

    private let maxBodyBytes: Int
    private(set) var body: [UInt8] = []
    private(set) var headers: [(name: String, value: String)] = []
    private var headerBytes = 0
    private var bodyStarted = false
    /// Set when a limit made a callback abort the transfer.
    private(set) var limitExceeded = false

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// Handles a body chunk; returns the number of bytes consumed (anything else aborts).
    func appendBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        bodyStarted = true
        guard body.count + chunk.count <= maxBodyBytes else {
            limitExceeded = true
            return 0
        }
        body.append(contentsOf: chunk)
        return chunk.count
    }

    /// Handles one complete header line (status line, field, or the blank line). A status line
    /// starts a new response, so interim 1xx responses' fields are dropped; trailers after the
    /// body are ignored. Returns the bytes consumed (anything else aborts).
    func appendHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        if bodyStarted { return line.count }
        let bytes = Self.trimTrailing(Array(line)[...])
        if bytes.starts(with: Self.statusLinePrefix) {
            headers.removeAll()
            headerBytes = 0
            return line.count
        }
        headerBytes += line.count
        guard headerBytes <= Self.maxHeaderBytes else {
            limitExceeded = true
            return 0
        }
        guard !bytes.isEmpty else { return line.count }
        if bytes[0] == UInt8(ascii: " ") || bytes[0] == UInt8(ascii: "\t") {
            // Obsolete line folding: continues the previous field's value.
            if var last = headers.popLast() {
                last.value += " " + String(decoding: Self.trim(bytes[...]), as: UTF8.self)
                headers.append(last)
            }
            return line.count
        }
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            let name = String(decoding: bytes[..<colon], as: UTF8.self)
            let value = String(decoding: Self.trim(bytes[(colon + 1)...]), as: UTF8.self)
            headers.append((name: name, value: value))
        }
        return line.count
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }

    /// Drops trailing whitespace and CRLF; leading whitespace marks a folded continuation.
    private static func trimTrailing(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var slice = bytes
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return Array(slice)
    }

    /// Drops whitespace on both ends (a field value's optional whitespace).
    private static func trim(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var slice = bytes
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        return trimTrailing(slice)
    }
}
