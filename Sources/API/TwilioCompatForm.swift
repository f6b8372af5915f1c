import HTTPTypes
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
