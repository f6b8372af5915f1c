import PhoneNumbers
import Testing

@Suite struct CountryCodeTests {
    @Test(arguments: [("BJ", 229), ("bj", 229), ("GB", 44), ("US", 1), ("GP", 590), ("MF", 590)])
    func knownRegionsHaveTheirCallingCode(region: String, code: Int) {
        #expect(PhoneNumberUtility().countryCode(forRegion: region) == code)
    }

    @Test(arguments: ["", "X", "XX", "ZZ", "001", "BEN", "B\u{0}J"])
    func unknownRegionsHaveNone(region: String) {
        #expect(PhoneNumberUtility().countryCode(forRegion: region) == nil)
    }
}
