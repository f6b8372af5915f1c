import PhoneParsing
import Foundation
import SettingsTable
import VerifyCore

/// `phone parse NUMBER [--region XX]`: one JSON object from the same parser as the API
/// (libphonenumber, then the ranges of PHONE_VERIFY_NUMBER_RANGES_FILE), saying which of the
/// two judged the number valid.
enum PhoneCommand {
    static let usage = "usage: phone-verify phone parse NUMBER [--region XX]\n"

    static func run(_ args: [String], environment: [String: String]) -> Int32 {
        guard args.first == "parse", args.count >= 2 else {
            FileHandle.standardError.write(Data(usage.utf8))
            return 64
        }
        var region: String?
        if let i = args.firstIndex(of: "--region"), i + 1 < args.count { region = args[i + 1].uppercased() }
        let ranges: [NumberRange]
        do {
            ranges = try declaredRanges(environment)
        } catch {
            FileHandle.standardError.write(Data("phone-verify: \(error)\n".utf8))
            return 78
        }
        let parser = DeclaredRangesParser(inner: LibPhoneNumberParser(), ranges: ranges)
        print(json(parser.explain(args[1], defaultRegion: region)).encodedString())
        return 0
    }

    /// Only the ranges file's setting: the command must work where the service's other
    /// settings (secrets, database) are absent.
    static func declaredRanges(_ environment: [String: String]) throws -> [NumberRange] {
        var reader = SettingReader(values: try Configuration.values(environment: environment), listed: { Settings.named($0) != nil })
        let ranges = reader(Settings.numberRangesFile) ?? []
        if !reader.problems.isEmpty { throw ConfigurationError(problems: reader.problems) }
        return ranges
    }

    static func json(_ result: Result<DeclaredRangesParser.Explained, PhoneNumberProblem>) -> JSONValue {
        switch result {
        case .success(let explained):
            let n = explained.number
            let range: JSONValue = explained.range.map {
                ["region": .string($0.region), "prefix": .string($0.prefix), "length": .int(Int64($0.length)), "type": .string($0.lineType.rawValue)]
            } ?? .null
            return ["valid": true, "e164": .string(n.e164), "region": .string(n.region), "type": .string(n.lineType.rawValue),
                    "international": .string(n.international), "reason": .null,
                    "source": .string(explained.range == nil ? "libphonenumber" : "declared_range"), "range": range]
        case .failure(let problem):
            return ["valid": false, "e164": .null, "region": .null, "type": .null, "reason": .string(problem.rawValue),
                    "source": "libphonenumber", "range": .null]
        }
    }
}
