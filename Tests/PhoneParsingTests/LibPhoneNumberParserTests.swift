import PhoneParsing
import Testing
import VerifyCore

@Suite struct LibPhoneNumberParserTests {
    @Test func libphonenumberParserMapsToTheDomain() {
        let parser = LibPhoneNumberParser()
        guard case .success(let n) = parser.parse("07400 123456", defaultRegion: "GB") else { Issue.record("must parse"); return }
        #expect(n.e164 == "+447400123456" && n.region == "GB" && n.countryCode == 44 && n.lineType == .mobile)
        #expect(n.international == "+44 7400 123456")
        #expect(parser.parse("+1 415 555", defaultRegion: nil) == .failure(.tooShort))
    }
}
