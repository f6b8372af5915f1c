/// Why a piece of text was not accepted as a valid phone number.
///
/// The raw values are stable snake_case names suitable for API error codes.
public enum PhoneNumberProblem: String, Sendable, Error, CaseIterable {
    /// Too few digits to be a number of its region.
    case tooShort = "too_short"
    /// Too many digits to be a number of its region.
    case tooLong = "too_long"
    /// The country calling code is unknown, or the number is not in international
    /// format and no (known) default region was given.
    case invalidCountryCode = "invalid_country_code"
    /// The text does not look like a phone number at all (including empty or over-long text).
    case notANumber = "not_a_number"
    /// The number has a plausible shape but matches no valid pattern of its region.
    case invalidForRegion = "invalid_for_region"
}
