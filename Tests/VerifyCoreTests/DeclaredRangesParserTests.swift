import Testing
import VerifyCore

/// An inner parser with canned answers: what libphonenumber would say.
private struct FakeParser: PhoneNumberParser {
    var answers: [String: Result<PhoneNumber, PhoneNumberProblem>]
    func parse(_ text: String, defaultRegion: String?) -> Result<PhoneNumber, PhoneNumberProblem> {
        answers[text] ?? .failure(.invalidForRegion)
    }
}

@Suite struct DeclaredRangesParserTests {
    let benin = NumberRange(region: "BJ", countryCode: 229, prefix: "01", length: 10, lineType: .mobile)
    let knownBenin = PhoneNumber(e164: "+22997000000", region: "BJ", countryCode: 229, lineType: .mobile, international: "+229 97 00 00 00")

    func parser(_ answers: [String: Result<PhoneNumber, PhoneNumberProblem>] = [:], ranges: [NumberRange]? = nil) -> DeclaredRangesParser {
        DeclaredRangesParser(inner: FakeParser(answers: answers), ranges: ranges ?? [benin])
    }

    @Test(arguments: ["+2290197000000", "+229 01 97 00 00 00", " +229 (01) 97-00.00/00"])
    func anE164NumberInADeclaredRangeIsValid(_ input: String) throws {
        let explained = try parser().explain(input, defaultRegion: nil).get()
        #expect(explained.range == benin)
        #expect(explained.number == PhoneNumber(
            e164: "+2290197000000", region: "BJ", countryCode: 229, lineType: .mobile, international: "+229 0197000000"))
    }

    @Test func nationalInputMatchesTheDefaultRegionsRangesOnly() throws {
        #expect(try parser().parse("01 97 00 00 00", defaultRegion: "bj").get().e164 == "+2290197000000")
        #expect(parser().parse("0197000000", defaultRegion: "FR") == .failure(.invalidForRegion))
        #expect(parser().parse("0197000000", defaultRegion: nil) == .failure(.invalidForRegion))
    }

    @Test(arguments: [PhoneNumberProblem.invalidForRegion, .tooLong, .tooShort])
    func refusalsForTheRegionAreOverturned(_ problem: PhoneNumberProblem) throws {
        let p = parser(["+2290197000000": .failure(problem)])
        #expect(try p.explain("+2290197000000", defaultRegion: nil).get().range == benin)
    }

    @Test(arguments: [PhoneNumberProblem.notANumber, .invalidCountryCode])
    func otherRefusalsStand(_ problem: PhoneNumberProblem) {
        #expect(parser(["+2290197000000": .failure(problem)]).parse("+2290197000000", defaultRegion: nil) == .failure(problem))
    }

    @Test func aNumberTheInnerParserAcceptsIsNeverChanged() throws {
        let everything = NumberRange(region: "BJ", countryCode: 229, prefix: "9", length: 8, lineType: .voip)
        let p = parser(["+22997000000": .success(knownBenin)], ranges: [everything])
        let explained = try p.explain("+22997000000", defaultRegion: nil).get()
        #expect(explained.number == knownBenin && explained.range == nil)
    }

    @Test(arguments: [
        "+229019700000",  // 9 national digits
        "+22901970000000",  // 11
        "+2290297000000",  // another prefix
        "+2280197000000",  // another country code
        "+229 01 97 00 00 0x",  // letters
        "tel:+2290197000000",
        "+",
        "",
    ])
    func numbersOutsideTheRangesStayRefused(_ input: String) {
        #expect(parser().parse(input, defaultRegion: nil) == .failure(.invalidForRegion))
    }

    @Test func theLongestMatchingPrefixWinsThenTheFirstDeclared() throws {
        let fixed = NumberRange(region: "BJ", countryCode: 229, prefix: "0120", length: 10, lineType: .fixedLine)
        let voip = NumberRange(region: "BJ", countryCode: 229, prefix: "01", length: 10, lineType: .voip)
        let p = parser(ranges: [benin, fixed, voip])
        #expect(try p.parse("+2290120000000", defaultRegion: nil).get().lineType == .fixedLine)
        #expect(try p.parse("+2290197000000", defaultRegion: nil).get().lineType == .mobile)
    }

    @Test func regionsSharingACountryCodeKeepTheirOwnRegion() throws {
        let guadeloupe = NumberRange(region: "GP", countryCode: 590, prefix: "690", length: 9, lineType: .mobile)
        let martin = NumberRange(region: "MF", countryCode: 590, prefix: "691", length: 9, lineType: .mobile)
        let p = parser(ranges: [guadeloupe, martin])
        #expect(try p.parse("+590691000000", defaultRegion: nil).get().region == "MF")
        #expect(try p.parse("690000000", defaultRegion: "GP").get().region == "GP")
        #expect(p.parse("690000000", defaultRegion: "MF") == .failure(.invalidForRegion))
    }

    @Test func withoutRangesTheInnerVerdictStands() {
        #expect(parser(ranges: []).parse("+2290197000000", defaultRegion: nil) == .failure(.invalidForRegion))
    }
}
