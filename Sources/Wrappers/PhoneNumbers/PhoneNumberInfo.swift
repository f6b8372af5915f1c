/// A phone number that libphonenumber parsed and judged valid.
public struct PhoneNumberInfo: Sendable, Equatable, Hashable {
    /// The number in E.164 form, for example `"+16502530000"`; use this as the canonical key.
    public let e164: String
    /// The ISO 3166-1 alpha-2 region the number belongs to, for example `"US"`;
    /// `"001"` for non-geographic numbers such as international freephone (+800).
    public let region: String
    /// The country calling code, for example `1` or `44`.
    public let countryCode: Int
    /// The kind of line, for example `.mobile`.
    public let type: PhoneNumberType
    /// The number in international display format, for example `"+1 650-253-0000"`.
    public let international: String
    /// The national significant number (no country code, no national prefix),
    /// for example `"6502530000"`.
    public let nationalNumber: String

    /// Creates a value directly, for example for test fakes; real values come from
    /// ``PhoneNumberUtility/parse(_:defaultRegion:)``.
    public init(
        e164: String,
        region: String,
        countryCode: Int,
        type: PhoneNumberType,
        international: String,
        nationalNumber: String
    ) {
        self.e164 = e164
        self.region = region
        self.countryCode = countryCode
        self.type = type
        self.international = international
        self.nationalNumber = nationalNumber
    }
}
