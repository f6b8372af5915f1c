/// A `PhoneNumberParser` decorator: numbers the inner parser (libphonenumber) refuses as
/// invalid for their region, too short or too long are accepted when their digits lie in a
/// range the operator declared (`NumberRange`), with the range's line type. A number the inner
/// parser accepts is never changed, and other refusals (not a number, unknown country code)
/// stand. Only "+" input (E.164, punctuation allowed) and national input with a default region
/// are matched; the national digits are compared as typed (no trunk prefix is removed).
public struct DeclaredRangesParser: PhoneNumberParser {
    /// A parse and, when a declared range made the number valid, that range.
    public struct Explained: Sendable, Equatable {
        public let number: PhoneNumber
        /// nil: the inner parser judged the number valid itself.
        public let range: NumberRange?
    }

    private let inner: any PhoneNumberParser
    private let ranges: [NumberRange]

    /// Refusals a declared range may overturn: the number has a country but its metadata does
    /// not know the number (or its length).
    static let overridable: Set<PhoneNumberProblem> = [.invalidForRegion, .tooShort, .tooLong]

    public init(inner: any PhoneNumberParser, ranges: [NumberRange]) {
        self.inner = inner
        self.ranges = ranges
    }

    public func parse(_ text: String, defaultRegion: String?) -> Result<PhoneNumber, PhoneNumberProblem> {
        explain(text, defaultRegion: defaultRegion).map(\.number)
    }

    /// The parse with its source: the inner parser's verdict or the declared range that matched.
    public func explain(_ text: String, defaultRegion: String?) -> Result<Explained, PhoneNumberProblem> {
        switch inner.parse(text, defaultRegion: defaultRegion) {
        case .success(let number):
            return .success(Explained(number: number, range: nil))
        case .failure(let problem):
            guard Self.overridable.contains(problem), !ranges.isEmpty,
                  let (range, national) = match(text, defaultRegion: defaultRegion)
            else { return .failure(problem) }
            return .success(Explained(number: range.phoneNumber(national: national), range: range))
        }
    }

    /// The declared range `text` lies in (the longest prefix wins, then the first declared) and
    /// the national significant number.
    func match(_ text: String, defaultRegion: String?) -> (NumberRange, String)? {
        guard let (international, digits) = Self.digits(of: text) else { return nil }
        var best: (NumberRange, String)?
        for range in ranges {
            let national: String
            if international {
                let code = String(range.countryCode)
                guard digits.hasPrefix(code) else { continue }
                national = String(digits.dropFirst(code.count))
            } else {
                guard let region = defaultRegion?.uppercased(), region == range.region else { continue }
                national = digits
            }
            guard range.contains(national: national) else { continue }
            if best == nil || range.prefix.count > best!.0.prefix.count { best = (range, national) }
        }
        return best
    }

    /// Whether `text` is international ("+" first) and its ASCII digits; nil when it holds
    /// anything but digits and the usual punctuation (spaces, "-", ".", "(", ")", "/").
    static func digits(of text: String) -> (international: Bool, digits: String)? {
        var scalars = Substring(text).drop { $0 == " " || $0 == "\t" }
        let international = scalars.first == "+"
        if international { scalars = scalars.dropFirst() }
        var digits = ""
        for c in scalars {
            if c.isASCII, c.isNumber {
                digits.append(c)
            } else if !" \t-.()/".contains(c) {
                return nil
            }
        }
        return digits.isEmpty ? nil : (international, digits)
    }
}
