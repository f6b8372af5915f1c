import PhoneParsing
import Testing
import VerifyCore

/// Declared ranges over the real libphonenumber: Benin's 2024 move to ten digits (01 + the old
/// eight) is refused by the 2022 metadata Debian ships, and accepted once declared.
@Suite struct DeclaredRangesLibPhoneNumberTests {
    let benin = NumberRange(region: "BJ", countryCode: 229, prefix: "01", length: 10, lineType: .mobile)

    @Test func theMetadataRefusesBeninsTenDigitNumbers() {
        // If this fails, the installed metadata knows the new plan: the range is no longer needed.
        guard case .failure = LibPhoneNumberParser().parse("+2290197000000", defaultRegion: nil) else {
            Issue.record("libphonenumber now accepts +229 01 …: pick another post-metadata change for this test")
            return
        }
    }

    @Test func aDeclaredRangeAcceptsThemWithItsLineType() throws {
        let parser = DeclaredRangesParser(inner: LibPhoneNumberParser(), ranges: [benin])
        let explained = try parser.explain("+229 01 97 00 00 00", defaultRegion: nil).get()
        #expect(explained.range == benin)
        #expect(explained.number.e164 == "+2290197000000" && explained.number.region == "BJ")
        #expect(explained.number.countryCode == 229 && explained.number.lineType == .mobile)
        #expect(try parser.parse("01 97 00 00 00", defaultRegion: "BJ").get().e164 == "+2290197000000")
    }

    @Test func numbersTheMetadataKnowsAreLeftAlone() throws {
        let greedy = NumberRange(region: "BJ", countryCode: 229, prefix: "9", length: 8, lineType: .voip)
        let parser = DeclaredRangesParser(inner: LibPhoneNumberParser(), ranges: [benin, greedy])
        let explained = try parser.explain("+22997000000", defaultRegion: nil).get()
        #expect(explained.range == nil && explained.number.lineType == .mobile)
        #expect(explained.number.international == "+229 97 00 00 00")
        // Still refused: another length, another prefix, an unknown country code.
        #expect(parser.parse("+22901970000001", defaultRegion: nil) == .failure(.tooLong))
        #expect(parser.parse("+999 0197000000", defaultRegion: nil) == .failure(.invalidCountryCode))
    }

    @Test func countryCodesComeFromTheMetadata() {
        let parser = LibPhoneNumberParser()
        #expect(parser.countryCode(forRegion: "BJ") == 229 && parser.countryCode(forRegion: "gy") == 592)
        #expect(parser.countryCode(forRegion: "XX") == nil && parser.countryCode(forRegion: "") == nil)
        #expect(parser.countryCode(forRegion: "BEN") == nil)
    }
}
