/// A block of numbers an operator declares valid (PHONE_VERIFY_NUMBER_RANGES_FILE): in `region`
/// (country calling code `countryCode`), national significant numbers that start with `prefix`
/// and are exactly `length` digits long are valid numbers of `lineType`. For numbering changes
/// newer than the libphonenumber metadata installed (docs/API.md, "Numbers newer than the
/// metadata").
public struct NumberRange: Sendable, Equatable {
    /// ISO 3166-1 alpha-2, upper-case, e.g. "BJ".
    public let region: String
    /// The region's country calling code, e.g. 229.
    public let countryCode: Int
    /// Leading digits of the national significant number, e.g. "01" (may be empty).
    public let prefix: String
    /// Digits of the national significant number, country code excluded.
    public let length: Int
    public let lineType: LineType

    public static let allowedLengths = 4...17

    public init(region: String, countryCode: Int, prefix: String, length: Int, lineType: LineType) {
        self.region = region
        self.countryCode = countryCode
        self.prefix = prefix
        self.length = length
        self.lineType = lineType
    }

    /// Whether a national significant number (ASCII digits) lies in the range.
    public func contains(national digits: String) -> Bool {
        digits.count == length && digits.hasPrefix(prefix)
    }

    /// The number `national` of this range as a valid `PhoneNumber`, formatted simply
    /// ("+229 0197000000": libphonenumber has no pattern to group it by).
    public func phoneNumber(national: String) -> PhoneNumber {
        let e164 = "+\(countryCode)\(national)"
        return PhoneNumber(e164: e164, region: region, countryCode: countryCode, lineType: lineType, international: "+\(countryCode) \(national)")
    }

    /// "BJ 01 10 mobile", the line as the file declares it.
    public var declaration: String { "\(region) \(prefix) \(length) \(lineType.rawValue)" }
}
