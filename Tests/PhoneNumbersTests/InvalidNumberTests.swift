import PhoneNumbers
import Testing

/// One input that must be rejected, and the problem libphonenumber's verdict maps to.
struct InvalidCase: Sendable, CustomTestStringConvertible {
    let input: String
    let region: String?
    let problem: PhoneNumberProblem
    let why: String

    var testDescription: String { "\(why): \(input.prefix(40)) [\(region ?? "-")]" }
}

private let invalidCases: [InvalidCase] = [
    // Too short: by possibility check, or already while parsing
    .init(input: "12", region: "US", problem: .tooShort, why: "possibility TOO_SHORT"),
    .init(input: "+1 12", region: nil, problem: .tooShort, why: "possibility TOO_SHORT"),
    .init(input: "+44 1", region: nil, problem: .tooShort, why: "parse TOO_SHORT_NSN"),
    .init(input: "011", region: "US", problem: .tooShort, why: "parse TOO_SHORT_AFTER_IDD"),
    // Too long: by possibility check, or already while parsing (NSN > 17 digits)
    .init(input: "+44 20 7031 3000 00", region: nil, problem: .tooLong, why: "possibility TOO_LONG"),
    .init(input: "+1 650 253 0000 1234 5678 9012", region: nil, problem: .tooLong, why: "parse TOO_LONG"),
    .init(input: "+49 30 12345678901234567890", region: nil, problem: .tooLong, why: "parse TOO_LONG"),
    // Invalid country code
    .init(input: "+999 123 4567", region: nil, problem: .invalidCountryCode, why: "unassigned +999"),
    .init(input: "+999", region: nil, problem: .invalidCountryCode, why: "unassigned +999 alone"),
    .init(input: "+0 123", region: nil, problem: .invalidCountryCode, why: "country code 0"),
    .init(input: "650 253 0000", region: nil, problem: .invalidCountryCode, why: "national format, no region"),
    .init(input: "650 253 0000", region: "", problem: .invalidCountryCode, why: "national format, empty region"),
    .init(input: "650 253 0000", region: "XX", problem: .invalidCountryCode, why: "unknown region"),
    .init(input: "650 253 0000", region: "USA", problem: .invalidCountryCode, why: "alpha-3 is not a region"),
    .init(input: "650 253 0000", region: "United States", problem: .invalidCountryCode, why: "long region"),
    // Not a number
    .init(input: "hello", region: "US", problem: .notANumber, why: "letters"),
    .init(input: "hello", region: nil, problem: .notANumber, why: "letters, no region"),
    .init(input: "", region: nil, problem: .notANumber, why: "empty"),
    .init(input: "", region: "US", problem: .notANumber, why: "empty with region"),
    .init(input: "   ", region: "US", problem: .notANumber, why: "blank"),
    .init(input: "1", region: "GB", problem: .notANumber, why: "single digit"),
    .init(input: "+1 650\u{0} 253 0000", region: nil, problem: .notANumber, why: "embedded NUL"),
    .init(input: "+44 20 7031 3000" + String(repeating: " ", count: 235), region: nil, problem: .notANumber, why: "251 bytes"),
    .init(input: String(repeating: "1", count: 300), region: "US", problem: .notANumber, why: "300 digits"),
    .init(input: String(repeating: "+44 20 7031 3000 ", count: 1000), region: "GB", problem: .notANumber, why: "17 kB"),
    .init(input: String(repeating: "é", count: 126), region: "FR", problem: .notANumber, why: "252 UTF-8 bytes"),
    // Right length, but no valid number of the region has this pattern
    .init(input: "+1 123 456 7890", region: nil, problem: .invalidForRegion, why: "NANP area code cannot start with 1"),
    .init(input: "+44 20 1234 567", region: nil, problem: .invalidForRegion, why: "London number one digit short"),
    .init(input: "0800 123", region: "GB", problem: .invalidForRegion, why: "truncated UK freephone"),
]

@Suite("Invalid numbers")
struct InvalidNumberTests {
    let utility = PhoneNumberUtility()

    @Test("Maps libphonenumber's verdict to the expected problem", arguments: invalidCases)
    func rejects(_ example: InvalidCase) {
        #expect(utility.parse(example.input, defaultRegion: example.region) == .failure(example.problem))
    }

    @Test("Problems have stable snake_case raw values")
    func problemRawValues() {
        #expect(PhoneNumberProblem.allCases.map(\.rawValue) == [
            "too_short", "too_long", "invalid_country_code", "not_a_number", "invalid_for_region",
        ])
    }

    @Test("Number types have stable snake_case raw values")
    func typeRawValues() {
        #expect(PhoneNumberType.allCases.map(\.rawValue) == [
            "fixed_line", "mobile", "fixed_line_or_mobile", "toll_free", "premium_rate", "shared_cost",
            "voip", "personal_number", "pager", "uan", "voicemail", "unknown",
        ])
    }

    @Test("Arbitrary junk never crashes and never yields a malformed number")
    func junkIsHandled() {
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet = Array("+0123456789()-. xXext;#*abcé１٣\u{0}\u{200B}tel:/")
        let regions: [String?] = [nil, "", "US", "GB", "de", "ZZ", "001", "ü"]
        for _ in 0..<3_000 {
            let length = Int(generator.next() % 40)
            let text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            let region = regions[Int(generator.next() % UInt64(regions.count))]
            if case .success(let info) = utility.parse(text, defaultRegion: region) {
                #expect(info.e164.hasPrefix("+"), "\(text)")
                let digitsOnly = info.e164.utf8.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                #expect(digitsOnly, "\(text)")
                #expect(info.region.count >= 2, "\(text)")
            }
        }
    }
}

/// Small deterministic PRNG so the junk test is reproducible.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
