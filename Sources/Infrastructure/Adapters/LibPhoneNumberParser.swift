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
}
