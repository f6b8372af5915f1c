import PhoneParsing
import Foundation
import SettingsTable
import VerifyCore

/// Declared number ranges, part of the codes section (who may receive codes; read by
/// `Configuration.readNumberRanges`).
extension Settings {
    public static let numberRangesFile = Setting<[NumberRange]>(
        "PHONE_VERIFY_NUMBER_RANGES_FILE", .codes, .numberRangesFile, default: "(none)",
        "file of number ranges newer than libphonenumber's metadata, declared valid: lines REGION PREFIX LENGTH LINE_TYPE, e.g. \"BJ 01 10 mobile\" (# comments; docs/API.md)")

    public static let defaultRegion = Setting<String>(
        "PHONE_VERIFY_DEFAULT_REGION", .codes,
        .checked("ISO 3166 region", problem: "must be a region libphonenumber knows, such as US or GB") { text in
            let region = text.uppercased()
            return region.utf8.count == 2 && LibPhoneNumberParser().countryCode(forRegion: region) != nil ? region : nil
        },
        default: "(none)",
        "how the operator console reads a number typed without + and a country code (e.g. \"(415) 555-2671\" with US); the API still takes E.164 only")

    static let numberRangesSection: [any SettingEntry] = [numberRangesFile, defaultRegion]
}

extension SettingType where Value == [NumberRange] {
    /// A file of `REGION PREFIX LENGTH LINE_TYPE` lines; each bad line is a problem of its own.
    static var numberRangesFile: Self {
        Self("file of REGION PREFIX LENGTH LINE_TYPE lines") { file in
            guard let data = FileManager.default.contents(atPath: file) else { return (nil, ["must name a readable file (\(file))"]) }
            guard let text = String(data: data, encoding: .utf8) else { return (nil, ["\(file) is not UTF-8 text"]) }
            let parser = LibPhoneNumberParser()
            let (ranges, problems) = NumberRangesFile(countryCode: { parser.countryCode(forRegion: $0) }).parse(text)
            return (problems.isEmpty ? ranges : nil, problems.map { "\(file) \($0)" })
        }
    }
}
