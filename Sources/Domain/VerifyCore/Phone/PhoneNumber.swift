/// A parsed, valid phone number.
public struct PhoneNumber: Sendable, Equatable {
    /// E.164, e.g. "+14155552671".
    public let e164: String
    /// ISO 3166-1 alpha-2 region, e.g. "US".
    public let region: String
    public let countryCode: Int
    public let lineType: LineType
    /// International format for people, e.g. "+1 415-555-2671".
    public let international: String

    public init(e164: String, region: String, countryCode: Int, lineType: LineType, international: String) {
        self.e164 = e164
        self.region = region
        self.countryCode = countryCode
        self.lineType = lineType
        self.international = international
    }

    /// The number masked for logs and hints: "+1*******2671" (country code and last four digits).
    public var masked: String { PhoneMask.mask(e164, countryCode: countryCode) }
}

/// Line types as libphonenumber classifies them.
public enum LineType: String, Sendable, CaseIterable, Codable {
    case fixedLine = "fixed_line"
    case mobile
    case fixedLineOrMobile = "fixed_line_or_mobile"
    case tollFree = "toll_free"
    case premiumRate = "premium_rate"
    case sharedCost = "shared_cost"
    case voip
    case personalNumber = "personal_number"
    case pager
    case uan
    case voicemail
    case unknown
}

/// Why a number was refused by the parser.
public enum PhoneNumberProblem: String, Sendable, Error {
    case tooShort = "too_short"
    case tooLong = "too_long"
    case invalidCountryCode = "invalid_country_code"
    case notANumber = "not_a_number"
    case invalidForRegion = "invalid_for_region"
}

/// Parses and validates phone numbers (libphonenumber in production).
public protocol PhoneNumberParser: Sendable {
    func parse(_ text: String, defaultRegion: String?) -> Result<PhoneNumber, PhoneNumberProblem>
}

/// Masks phone numbers for logs and display hints.
public enum PhoneMask {
    /// Keeps "+", the country calling code (or the first digit when unknown) and the last four
    /// digits, with a fixed run of seven stars so the hint does not reveal the number's length:
    /// "+14155552671" → "+1*******2671".
    public static func mask(_ e164: String, countryCode: Int? = nil) -> String {
        let chars = Array(e164)
        guard chars.count > 6 else { return "*******" }
        let head = min(1 + (countryCode.map { String($0).count } ?? 1), chars.count - 4)
        return String(chars[0..<head]) + "*******" + String(chars[(chars.count - 4)...])
    }
}
