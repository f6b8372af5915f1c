import Foundation

/// Writes one JSON object a line to a file descriptor (stderr by default) with one
/// `write(2)` per record, so lines from many threads never interleave.
public struct JSONLogHandler: LogHandler {
    private let fd: Int32

    public init(fileDescriptor: Int32 = 2) {
        self.fd = fileDescriptor
    }

    public func write(_ record: LogRecord) {
        var line = JSONLogHandler.encode(record)
        line.append(0x0A)
        line.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// `{"time":…,"level":…,"msg":…, fields…}`.
    public static func encode(_ record: LogRecord) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(256)
        out.append(contentsOf: "{\"time\":".utf8)
        appendString(Timestamp.rfc3339Millis(record.time), to: &out)
        out.append(contentsOf: ",\"level\":".utf8)
        appendString(record.level.name, to: &out)
        out.append(contentsOf: ",\"msg\":".utf8)
        appendString(record.message, to: &out)
        for (key, value) in record.fields {
            out.append(UInt8(ascii: ","))
            appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendString(value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    private static let hex = Array("0123456789abcdef".utf8)

    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0..<0x20, 0x7F:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// Timestamp formatting without DateFormatter (which is slow and not thread-friendly).
public enum Timestamp {
    /// "2026-11-30T18:05:00.123Z".
    public static func rfc3339Millis(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let millis = min(999, max(0, Int((interval - Double(seconds)) * 1000)))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var out = [UInt8]()
        out.reserveCapacity(24)
        func digits(_ value: Int, _ width: Int, then separator: UInt8?) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                out.append(UInt8(48 + (value / divisor) % 10))
                divisor /= 10
            }
            if let separator { out.append(separator) }
        }
        digits(Int(parts.tm_year) + 1900, 4, then: UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2, then: UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2, then: UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2, then: UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2, then: UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2, then: UInt8(ascii: "."))
        digits(millis, 3, then: UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }
}
