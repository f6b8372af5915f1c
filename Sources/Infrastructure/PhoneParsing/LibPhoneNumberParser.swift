import PhoneNumbers
import VerifyCore

/// `PhoneNumberParser` backed by libphonenumber.
public struct LibPhoneNumberParser: PhoneNumberParser {
    private let utility = PhoneNumberUtility()

    public init() {}

    public func parse(_ text: String, defaultRegion: String?) -> Result<PhoneNumber, VerifyCore.PhoneNumberProblem> {
        switch utility.parse(text, defaultRegion: defaultRegion) {
        case .failure(let problem):
            return .failure(VerifyCore.PhoneNumberProblem(rawValue: problem.rawValue) ?? .notANumber)
        case .success(let info):
            return .success(PhoneNumber(
                e164: info.e164, region: info.region, countryCode: info.countryCode,
                lineType: LineType(rawValue: info.type.rawValue) ?? .unknown, international: info.international))
        }
    }

    /// The country calling code of an ISO 3166-1 alpha-2 region (e.g. 229 for "BJ"), or nil when
    /// libphonenumber's metadata does not know the region.
    public func countryCode(forRegion region: String) -> Int? {
        utility.countryCode(forRegion: region)
    }
}
