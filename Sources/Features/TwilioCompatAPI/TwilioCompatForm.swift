import Foundation
import API
import HTTPMessages
import VerifyCore

/// `application/x-www-form-urlencoded` parameters of a Twilio-style request (the first value of
/// a repeated name wins; names are case-sensitive, as Twilio's).
struct Form {
    let fields: [String: String]

    init(_ request: HTTPRequest) throws {
        if !request.body.isEmpty, let type = request.headers["Content-Type"] {
            let media = type.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard media == "application/x-www-form-urlencoded" else {
                throw TwilioCompatError(415, 60200, "Invalid parameter: Content-Type must be application/x-www-form-urlencoded")
            }
        }
        var fields: [String: String] = [:]
        for (name, value) in FormBody.fields(request.body) where fields[name] == nil { fields[name] = value }
        self.fields = fields
    }

    /// A trimmed, non-empty string of at most `maxLength` characters; nil when absent.
    /// Controls, line and paragraph separators, and invisible formatting (bidirectional overrides:
    /// U+202E shows text reversed; zero-width spaces, tags, soft hyphens), except ZWNJ and ZWJ,
    /// which are ordinary text in Persian, Indic scripts and emoji sequences.
    static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        case .format: return scalar.value != 0x200C && scalar.value != 0x200D
        default: return false
        }
    }

    func string(_ name: String, maxLength: Int) throws -> String? {
        guard let raw = fields[name] else { return nil }
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else { throw TwilioCompatError.invalid(name, "must not be empty") }
        // Counted in code points, not grapheme clusters: one "character" can carry hundreds of
        // combining marks, and these names end up in the SMS text.
        guard value.unicodeScalars.count <= maxLength else { throw TwilioCompatError.invalid(name, "must be at most \(maxLength) characters") }
        guard !value.unicodeScalars.contains(where: Self.isRefused) else {
            throw TwilioCompatError.invalid(name, "must not contain control, line-breaking or invisible formatting characters")
        }
        return value
    }

    /// A name that goes into the SMS text (`FriendlyName`, `CustomFriendlyName`): a `string` of at
    /// most 32 code points that, as Twilio's published rule for a Verify service's name says,
    /// holds no link and at most 4 digits, so a tenant cannot put a phone number or a URL to call
    /// or visit in front of a real code ("Your Bank: call +1 900 555 0199 code is …").
    func friendlyName(_ name: String) throws -> String? {
        guard let value = try string(name, maxLength: 32) else { return nil }
        if Self.digitCount(value) > 4 {
            throw TwilioCompatError.invalid(name, "must not contain a phone number or more than 4 digits")
        }
        if Self.containsLink(value) {
            throw TwilioCompatError.invalid(name, "must not contain a link, web address or e-mail address")
        }
        return value
    }

    /// Digits of any script (fullwidth and Arabic-Indic digits dial as well as ASCII ones).
    static func digitCount(_ text: String) -> Int {
        text.unicodeScalars.filter { $0.properties.numericType == .decimal || $0.properties.numericType == .digit }.count
    }

    /// A scheme (`https://`), `www.`, a host name's dot — a dot between a letter or digit and two
    /// letters ("acme.com", "bit.ly", "a@b.io") — or an IPv4-like run ("8.8.8.8"), judged on the
    /// name's skeleton (see `linkSkeleton`), so invisible characters, combining marks and
    /// look-alike dots or colons cannot hide one. Abbreviations keep working: "Acme Inc.",
    /// "St. Louis", "A.B. Corp".
    static func containsLink(_ text: String) -> Bool {
        let skeleton = linkSkeleton(text)
        if skeleton.contains(":/") || skeleton.contains("www.") { return true }
        let scalars = Array(skeleton.unicodeScalars)
        for (i, scalar) in scalars.enumerated() where scalar == "." && i > 0 && i + 1 < scalars.count {
            let before = scalars[i - 1].properties
            let after = scalars[i + 1].properties
            if (before.isAlphabetic || before.numericType != nil) && i + 2 < scalars.count
                && after.isAlphabetic && scalars[i + 2].properties.isAlphabetic
            {
                return true
            }
            // Digits on both sides of two dots: an IP address (clients linkify those too).
            if before.numericType != nil && after.numericType != nil,
                scalars[(i + 1)...].drop(while: { $0.properties.numericType != nil }).first == "."
            {
                return true
            }
        }
        return false
    }

    /// The name as a link detector should read it (found by an attack review): lower-cased,
    /// without invisible characters (format characters such as ZWJ, variation selectors,
    /// combining marks), with look-alike dots, colons and slashes made ASCII, and with
    /// bracketed dots ("example[.]com") unwrapped.
    static func linkSkeleton(_ text: String) -> String {
        let dots: Set<UInt32> = [0xFF0E, 0x3002, 0xFF61, 0x2024, 0xFE52, 0x00B7, 0x2027, 0x30FB, 0x2E31, 0x0701, 0x0702]
        let colons: Set<UInt32> = [0xFF1A, 0xFE13, 0xFE55, 0x2236, 0x02D0, 0xA789]
        let slashes: Set<UInt32> = [0xFF0F, 0x2215, 0x2044, 0x29F8]
        var out = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            let properties = scalar.properties
            switch properties.generalCategory {
            case .format, .nonspacingMark, .enclosingMark, .spacingMark: continue
            default: break
            }
            if properties.isDefaultIgnorableCodePoint { continue }
            if dots.contains(scalar.value) { out.append(".") } else if colons.contains(scalar.value) {
                out.append(":")
            } else if slashes.contains(scalar.value) { out.append("/") } else { out.append(scalar) }
        }
        var skeleton = String(out)
        for (open, close) in [("[", "]"), ("(", ")"), ("{", "}"), ("<", ">")] {
            skeleton = skeleton.replacingOccurrences(of: open + "." + close, with: ".")
        }
        return skeleton
    }

    func bool(_ name: String) throws -> Bool? {
        guard let value = fields[name] else { return nil }
        switch value.lowercased() {
        case "true": return true
        case "false": return false
        default: throw TwilioCompatError.invalid(name, "must be true or false")
        }
    }

    func int(_ name: String) throws -> Int? {
        guard let value = fields[name] else { return nil }
        guard let number = Int(value.trimmingCharacters(in: .whitespaces)) else { throw TwilioCompatError.invalid(name, "must be an integer") }
        return number
    }
}
