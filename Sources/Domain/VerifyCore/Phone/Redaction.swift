import Foundation

/// Removes what must never reach logs or API answers from text written by someone else (a
/// vendor's error message, a webhook's response body): the code, the phone number, and anything
/// else that looks like a phone number.
public enum Redaction {
    public static let redacted = "[redacted]"
    /// A run of at least this many digits (spaces, dots, dashes, parentheses and one leading "+"
    /// allowed between them) is taken for a phone number. Vendor error codes (5 digits) and HTTP
    /// statuses are shorter.
    public static let numberDigits = 7

    /// `text` with every occurrence of each secret (e.g. the code, the E.164 number) and every
    /// number-like run of `numberDigits` or more digits replaced by "[redacted]", then cut to
    /// `maxLength` characters. Cutting comes last: cut first, a secret split at the edge (the
    /// first digits of a code) would no longer match and would stay.
    public static func scrub(_ text: String, secrets: [String], maxLength: Int = 300) -> String {
        var result = String(text.prefix(16 * 1024))
        // Longest first, so a secret inside another is not left half replaced.
        for secret in secrets.filter({ !$0.isEmpty }).sorted(by: { $0.count > $1.count }) {
            result = result.replacingOccurrences(of: secret, with: redacted)
        }
        // Then the forms a vendor echoes back: spelled, encoded, between SSML pauses.
        let spelled = secrets.flatMap { spelledRanges(of: $0, in: Array(result.unicodeScalars)) }
        if !spelled.isEmpty { result = replacing(spelled, in: result) }
        return String(maskingNumbers(result).prefix(maxLength))
    }

    /// `text` with each of `ranges` (scalar offsets; overlapping ones merged) replaced by "[redacted]".
    private static func replacing(_ ranges: [Range<Int>], in text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where range.upperBound > i {
            if range.lowerBound >= i {
                out.append(contentsOf: scalars[i..<range.lowerBound])
                out.append(contentsOf: redacted.unicodeScalars)
            }
            i = range.upperBound
        }
        out.append(contentsOf: scalars[i...])
        return String(out)
    }

    private static func maskingNumbers(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "+" || isDigit(scalars[i]) || scalars[i] == "(" else {
                out.append(scalars[i])
                i += 1
                continue
            }
            // The longest run of digits and separators from here, ending on a digit.
            var j = i
            var digits = 0
            var end = i
            while j < scalars.count, isDigit(scalars[j]) || isSeparator(scalars[j]) || (j == i && scalars[j] == "+") {
                if isDigit(scalars[j]) {
                    digits += 1
                    end = j + 1
                }
                j += 1
            }
            if digits >= numberDigits {
                out.append(contentsOf: redacted.unicodeScalars)
                i = end
            } else {
                // No shorter run inside this one has more digits: copy it whole (linear time).
                let stop = max(j, i + 1)
                out.append(contentsOf: scalars[i..<stop])
                i = stop
            }
        }
        return String(out)
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
    private static func isSeparator(_ s: Unicode.Scalar) -> Bool { s == " " || s == "-" || s == "." || s == "(" || s == ")" }
}
