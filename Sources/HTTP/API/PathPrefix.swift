/// The leading segments a ``RouteGroup`` owns ("/v1/admin" owns "/v1/admin" and "/v1/admin/…",
/// not "/v1/administrator"), read as the router reads paths: empty segments do not count, so
/// "//v1//admin/x" is under "/v1/admin". The empty prefix owns every path.
public struct PathPrefix: Sendable, Equatable, CustomStringConvertible {
    let segments: [[UInt8]]

    public init(_ text: String) {
        segments = text.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.utf8) }
    }

    public var description: String { "/" + segments.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/") }

    /// Whether `path` lies under this prefix. Runs once per request for each group with
    /// middleware: compares bytes in place, no split and no allocation (a native
    /// string, as the server makes, is contiguous).
    public func owns(_ path: String) -> Bool {
        path.utf8.withContiguousStorageIfAvailable { owns(bytes: $0) } ?? Array(path.utf8).withUnsafeBufferPointer { owns(bytes: $0) }
    }

    func owns(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        for segment in segments {
            while index < bytes.count, bytes[index] == UInt8(ascii: "/") { index += 1 }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "/") { index += 1 }
            guard index - start == segment.count else { return false }
            for offset in 0..<segment.count where bytes[start + offset] != segment[offset] { return false }
        }
        return true
    }

    /// Whether every path under `other` is also under this prefix.
    func contains(_ other: PathPrefix) -> Bool {
        other.segments.count >= segments.count && Array(other.segments.prefix(segments.count)) == segments
    }
}
