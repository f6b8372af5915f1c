import Foundation

/// RFC 3339 instants as vendors write them: `2022-02-28T15:14:30.096Z` (Turnstile),
/// `2022-08-16T01:25:24Z` (reCAPTCHA), `…T…+00:00`, or with nanoseconds (Google's
/// `createTime`). The fraction is read by hand: formatters differ in how many digits they take.
enum VendorTimestamp {
    static func parse(_ text: String) -> Date? {
        var whole = text
        var fraction = 0.0
        if let dot = text.firstIndex(of: ".") {
            let digits = text[text.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
            fraction = value
            whole = String(text[..<dot]) + String(text[text.index(after: dot)...].dropFirst(digits.count))
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: whole).map { $0 + fraction }
    }
}
