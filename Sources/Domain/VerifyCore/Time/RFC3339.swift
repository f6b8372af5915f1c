import Foundation

/// RFC 3339 timestamps in UTC with whole seconds: "2026-11-30T18:05:00Z".
/// Formatted by hand: `String(format:)` and DateFormatter cost microseconds per call.
public enum RFC3339 {
    public static func format(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        var out = [UInt8]()
        out.reserveCapacity(20)
        appendDigits(Int(parts.tm_year) + 1900, 4, &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mon) + 1, 2, &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mday), 2, &out)
        out.append(UInt8(ascii: "T"))
        appendDigits(Int(parts.tm_hour), 2, &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_min), 2, &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_sec), 2, &out)
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `value` as exactly `width` decimal digits (zero-padded).
    public static func appendDigits(_ value: Int, _ width: Int, _ out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var v = value
        while divisor > 0 {
            out.append(UInt8(48 + (v / divisor) % 10))
            v %= divisor
            divisor /= 10
        }
    }
}
