import VerifyCore

/// The text of PHONE_VERIFY_NUMBER_RANGES_FILE: one declared range per line,
/// `REGION PREFIX LENGTH LINE_TYPE` (e.g. `BJ 01 10 mobile`), `#` comments and blank lines
/// allowed; LF or CRLF line ends. Every bad line is reported with its number; none stops the others being read.
struct NumberRangesFile {
    /// The country calling code of a region, nil for a region the metadata does not know.
    let countryCode: (String) -> Int?

    func parse(_ text: String) -> (ranges: [NumberRange], problems: [String]) {
        var ranges: [NumberRange] = [], problems: [String] = []
        var declared: [String: Int] = [:]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if fields.isEmpty { continue }
            switch range(fields) {
            case .success(let range):
                let key = "\(range.region) \(range.prefix) \(range.length)"
                if let first = declared[key] {
                    problems.append("line \(number): repeats the range of line \(first)")
                } else {
                    declared[key] = number
                    ranges.append(range)
                }
            case .failure(let problem):
                problems.append("line \(number): \(problem.message)")
            }
        }
        return (ranges, problems)
    }

    struct Problem: Error { let message: String }

    private func range(_ fields: [String]) -> Result<NumberRange, Problem> {
        guard fields.count == 4 else {
            return .failure(Problem(message: "has \(fields.count) field\(fields.count == 1 ? "" : "s"), expected REGION PREFIX LENGTH LINE_TYPE"))
        }
        let region = fields[0].uppercased()
        guard region.count == 2, region.allSatisfy({ $0.isASCII && $0.isLetter }), let code = countryCode(region) else {
            return .failure(Problem(message: "unknown region \"\(fields[0])\" (an ISO 3166-1 alpha-2 code libphonenumber knows)"))
        }
        let prefix = fields[1]
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return .failure(Problem(message: "prefix \"\(prefix)\" must be digits only (the start of the national number)"))
        }
        let lengths = NumberRange.allowedLengths
        guard let length = Int(fields[2]), lengths.contains(length) else {
            return .failure(Problem(message: "length \"\(fields[2])\" must be a whole number from \(lengths.lowerBound) to \(lengths.upperBound)"))
        }
        guard prefix.count <= length else {
            return .failure(Problem(message: "prefix \"\(prefix)\" is longer than the length \(length)"))
        }
        guard let type = LineType(rawValue: fields[3].lowercased()), type != .unknown else {
            let known = LineType.allCases.filter { $0 != .unknown }.map(\.rawValue).joined(separator: ", ")
            return .failure(Problem(message: "line type \"\(fields[3])\" must be one of \(known)"))
        }
        return .success(NumberRange(region: region, countryCode: code, prefix: prefix, length: length, lineType: type))
    }
}
