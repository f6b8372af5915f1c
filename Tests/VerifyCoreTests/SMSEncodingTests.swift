import Testing
import VerifyCore

@Suite struct SMSEncodingTests {
    private func repeated(_ text: String, _ count: Int) -> String {
        String(repeating: text, count: count)
    }

    @Test(arguments: [
        (0, 0), (1, 1), (160, 1), (161, 2), (306, 2), (307, 3), (459, 3), (460, 4),
    ])
    func gsm7SegmentBoundaries(length: Int, segments: Int) {
        let measured = SMSSegments.measure(repeated("a", length))
        #expect(measured == SMSSegments(encoding: .gsm7, units: length, segments: segments))
    }

    @Test(arguments: ["^", "{", "}", "\\", "[", "~", "]", "|", "€", "\u{0C}"])
    func extensionCharactersCountDouble(character: String) {
        #expect(SMSSegments.measure(character) == SMSSegments(encoding: .gsm7, units: 2, segments: 1))
        #expect(SMSSegments.measure(repeated(character, 80)).segments == 1)
        #expect(SMSSegments.measure(repeated(character, 81)) == SMSSegments(encoding: .gsm7, units: 162, segments: 2))
        #expect(SMSSegments.measure(repeated("a", 159) + character).segments == 2)
    }

    /// The basic table includes these accented letters, Greek capitals and symbols.
    @Test(arguments: ["é", "è", "ù", "ì", "ò", "à", "É", "Ç", "Ä", "ö", "ñ", "Ü", "ß", "Å", "ø", "Æ",
                      "Δ", "Ω", "Σ", "£", "¥", "¤", "§", "¡", "¿", "@", "$", "_", "'", "\n", "\r"])
    func basicTableCharactersAreOneSeptet(character: String) {
        #expect(SMSSegments.measure(character) == SMSSegments(encoding: .gsm7, units: 1, segments: 1))
    }

    /// Common letters that are not in the GSM alphabet force UCS-2 for the whole text.
    @Test(arguments: ["á", "í", "ó", "ú", "ã", "õ", "ç", "ê", "â", "δ", "ı", "’", "“", "…", "`", "д", "中", "😀"])
    func charactersOutsideTheAlphabetForceUCS2(character: String) {
        let measured = SMSSegments.measure("Code " + character)
        #expect(measured.encoding == .ucs2)
        #expect(measured.units == 5 + character.utf16.count)
    }

    @Test func oneSeptetCharactersMatchTheBasicTable() {
        #expect(SMSEncoding.gsm7Septets("é") == 1)
        #expect(SMSEncoding.gsm7Septets("€") == 2)
        #expect(SMSEncoding.gsm7Septets("á") == nil)
        // 128 code points minus the escape: 127 basic characters.
        let basic = (UInt32(0)..<0x3000).compactMap { Unicode.Scalar($0) }.filter { SMSEncoding.gsm7Septets($0) == 1 }
        #expect(basic.count == 127)
    }

    @Test(arguments: [(70, 1), (71, 2), (134, 2), (135, 3), (201, 3), (202, 4)])
    func ucs2SegmentBoundaries(length: Int, segments: Int) {
        #expect(SMSSegments.measure(repeated("д", length)) == SMSSegments(encoding: .ucs2, units: length, segments: segments))
    }

    @Test func emojiTakeTwoUnits() {
        #expect(SMSSegments.measure("😀") == SMSSegments(encoding: .ucs2, units: 2, segments: 1))
        #expect(SMSSegments.measure(repeated("😀", 35)) == SMSSegments(encoding: .ucs2, units: 70, segments: 1))
        #expect(SMSSegments.measure(repeated("😀", 36)) == SMSSegments(encoding: .ucs2, units: 72, segments: 2))
        // One emoji turns an otherwise GSM-7 text into UCS-2.
        #expect(SMSSegments.measure(repeated("a", 69) + "😀").segments == 2)
        // A family emoji is 4 people + 3 joiners: 11 units.
        #expect(SMSSegments.measure("👨‍👩‍👧‍👦").units == 11)
    }

    @Test func charactersAreNotSplitBetweenParts() {
        // 306 septets would be 2 parts of 153, but the escape pair cannot straddle the boundary.
        let gsm = repeated("a", 152) + "€" + repeated("a", 152)
        #expect(SMSSegments.measure(gsm) == SMSSegments(encoding: .gsm7, units: 306, segments: 3))
        // Same for a surrogate pair at the end of a 67-unit part.
        let ucs2 = repeated("д", 66) + "😀" + repeated("д", 66)
        #expect(SMSSegments.measure(ucs2) == SMSSegments(encoding: .ucs2, units: 134, segments: 3))
    }

    @Test func limitsPerEncoding() {
        #expect(SMSEncoding.gsm7.singleSegmentUnits == 160 && SMSEncoding.gsm7.concatenatedSegmentUnits == 153)
        #expect(SMSEncoding.ucs2.singleSegmentUnits == 70 && SMSEncoding.ucs2.concatenatedSegmentUnits == 67)
        #expect(SMSSegments.measure("").isSingleSegment)
        #expect(!SMSSegments.measure(repeated("a", 161)).isSingleSegment)
    }
}
