import PhoneNumbers
import Testing

/// One valid number as a user might type it, with what libphonenumber (metadata 8.12.57)
/// says about it. The numbers are libphonenumber's own example numbers per region and
/// type (plus Google's published office numbers), cross-checked with the Python port.
struct ValidCase: Sendable, CustomTestStringConvertible {
    let input: String
    let region: String?
    let e164: String
    let regionCode: String
    let type: PhoneNumberType
    let international: String

    var testDescription: String { "\(input) [\(region ?? "-")]" }
}

private let validCases: [ValidCase] = [
    // United States (NANP numbers cannot be told apart: fixed line or mobile)
    .init(input: "+1 650-253-0000", region: nil, e164: "+16502530000", regionCode: "US", type: .fixedLineOrMobile, international: "+1 650-253-0000"),
    .init(input: "(201) 555-0123", region: "US", e164: "+12015550123", regionCode: "US", type: .fixedLineOrMobile, international: "+1 201-555-0123"),
    .init(input: "1-800-234-5678", region: "US", e164: "+18002345678", regionCode: "US", type: .tollFree, international: "+1 800-234-5678"),
    .init(input: "(900) 234-5678", region: "US", e164: "+19002345678", regionCode: "US", type: .premiumRate, international: "+1 900-234-5678"),
    .init(input: "tel:+1-650-253-0000", region: nil, e164: "+16502530000", regionCode: "US", type: .fixedLineOrMobile, international: "+1 650-253-0000"),
    // United Kingdom
    .init(input: "+44 20 7031 3000", region: nil, e164: "+442070313000", regionCode: "GB", type: .fixedLine, international: "+44 20 7031 3000"),
    .init(input: "07400 123456", region: "GB", e164: "+447400123456", regionCode: "GB", type: .mobile, international: "+44 7400 123456"),
    .init(input: "0800 123 4567", region: "GB", e164: "+448001234567", regionCode: "GB", type: .tollFree, international: "+44 800 123 4567"),
    .init(input: "0901 234 5678", region: "GB", e164: "+449012345678", regionCode: "GB", type: .premiumRate, international: "+44 901 234 5678"),
    .init(input: "070 1234 5678", region: "GB", e164: "+447012345678", regionCode: "GB", type: .personalNumber, international: "+44 70 1234 5678"),
    .init(input: "076 4012 3456", region: "GB", e164: "+447640123456", regionCode: "GB", type: .pager, international: "+44 76 4012 3456"),
    .init(input: "055 1234 5678", region: "GB", e164: "+445512345678", regionCode: "GB", type: .uan, international: "+44 55 1234 5678"),
    // Germany
    .init(input: "+49 30 123456", region: nil, e164: "+4930123456", regionCode: "DE", type: .fixedLine, international: "+49 30 123456"),
    .init(input: "01512 3456789", region: "DE", e164: "+4915123456789", regionCode: "DE", type: .mobile, international: "+49 1512 3456789"),
    .init(input: "0800 1234567890", region: "DE", e164: "+498001234567890", regionCode: "DE", type: .tollFree, international: "+49 800 1234567890"),
    // France
    .init(input: "+33 1 23 45 67 89", region: nil, e164: "+33123456789", regionCode: "FR", type: .fixedLine, international: "+33 1 23 45 67 89"),
    .init(input: "06 12 34 56 78", region: "FR", e164: "+33612345678", regionCode: "FR", type: .mobile, international: "+33 6 12 34 56 78"),
    .init(input: "09 12 34 56 78", region: "FR", e164: "+33912345678", regionCode: "FR", type: .voip, international: "+33 9 12 34 56 78"),
    // India
    .init(input: "+91 81234 56789", region: nil, e164: "+918123456789", regionCode: "IN", type: .mobile, international: "+91 81234 56789"),
    .init(input: "081234 56789", region: "IN", e164: "+918123456789", regionCode: "IN", type: .mobile, international: "+91 81234 56789"),
    .init(input: "1800 12 3456", region: "IN", e164: "+911800123456", regionCode: "IN", type: .tollFree, international: "+91 1800 12 3456"),
    // Brazil
    .init(input: "+55 11 96123-4567", region: nil, e164: "+5511961234567", regionCode: "BR", type: .mobile, international: "+55 11 96123-4567"),
    .init(input: "(11) 2345-6789", region: "BR", e164: "+551123456789", regionCode: "BR", type: .fixedLine, international: "+55 11 2345-6789"),
    .init(input: "0800 12 3456", region: "BR", e164: "+55800123456", regionCode: "BR", type: .tollFree, international: "+55 800 12 3456"),
    // Japan
    .init(input: "+81 90-1234-5678", region: nil, e164: "+819012345678", regionCode: "JP", type: .mobile, international: "+81 90-1234-5678"),
    .init(input: "03-1234-5678", region: "JP", e164: "+81312345678", regionCode: "JP", type: .fixedLine, international: "+81 3-1234-5678"),
    .init(input: "0120-123-456", region: "JP", e164: "+81120123456", regionCode: "JP", type: .tollFree, international: "+81 120-123-456"),
    .init(input: "050-1234-5678", region: "JP", e164: "+815012345678", regionCode: "JP", type: .voip, international: "+81 50-1234-5678"),
    // Australia
    .init(input: "+61 412 345 678", region: nil, e164: "+61412345678", regionCode: "AU", type: .mobile, international: "+61 412 345 678"),
    .init(input: "(02) 1234 5678", region: "AU", e164: "+61212345678", regionCode: "AU", type: .fixedLine, international: "+61 2 1234 5678"),
    .init(input: "1300 123 456", region: "AU", e164: "+611300123456", regionCode: "AU", type: .sharedCost, international: "+61 1300 123 456"),
    .init(input: "1900 123 456", region: "AU", e164: "+611900123456", regionCode: "AU", type: .premiumRate, international: "+61 1900 123 456"),
    // Nigeria
    .init(input: "+234 802 123 4567", region: nil, e164: "+2348021234567", regionCode: "NG", type: .mobile, international: "+234 802 123 4567"),
    .init(input: "01 804 0123", region: "NG", e164: "+23418040123", regionCode: "NG", type: .fixedLine, international: "+234 1 804 0123"),
    // Others: Switzerland, Italy, South Africa, Kenya, international freephone
    .init(input: "078 123 45 67", region: "CH", e164: "+41781234567", regionCode: "CH", type: .mobile, international: "+41 78 123 45 67"),
    .init(input: "02 1234 5678", region: "IT", e164: "+390212345678", regionCode: "IT", type: .fixedLine, international: "+39 02 1234 5678"),
    .init(input: "+27 71 123 4567", region: nil, e164: "+27711234567", regionCode: "ZA", type: .mobile, international: "+27 71 123 4567"),
    .init(input: "0712 123456", region: "KE", e164: "+254712123456", regionCode: "KE", type: .mobile, international: "+254 712 123456"),
    .init(input: "+800 1234 5678", region: nil, e164: "+80012345678", regionCode: "001", type: .tollFree, international: "+800 1234 5678"),
    // Input quirks libphonenumber accepts
    .init(input: "1-800-FLOWERS", region: "US", e164: "+18003569377", regionCode: "US", type: .tollFree, international: "+1 800-356-9377"),
    .init(input: "011 44 20 7031 3000", region: "US", e164: "+442070313000", regionCode: "GB", type: .fixedLine, international: "+44 20 7031 3000"),
    .init(input: "00 44 20 7031 3000", region: "DE", e164: "+442070313000", regionCode: "GB", type: .fixedLine, international: "+44 20 7031 3000"),
    .init(input: "+44 20 7031 3000", region: "US", e164: "+442070313000", regionCode: "GB", type: .fixedLine, international: "+44 20 7031 3000"),
    .init(input: "+44 (0) 20 7031 3000", region: nil, e164: "+442070313000", regionCode: "GB", type: .fixedLine, international: "+44 20 7031 3000"),
    .init(input: " +  44 - 7400 - 123456 ", region: nil, e164: "+447400123456", regionCode: "GB", type: .mobile, international: "+44 7400 123456"),
    .init(input: "07400 123456", region: "gb", e164: "+447400123456", regionCode: "GB", type: .mobile, international: "+44 7400 123456"),
    .init(input: "１２０１５５５０１２３", region: "US", e164: "+12015550123", regionCode: "US", type: .fixedLineOrMobile, international: "+1 201-555-0123"),
]

@Suite("Valid numbers")
struct ValidNumberTests {
    let utility = PhoneNumberUtility()

    @Test("Parses to the expected E.164, region, type and international format", arguments: validCases)
    func parsesValidNumber(_ example: ValidCase) throws {
        let info = try utility.parse(example.input, defaultRegion: example.region).get()
        #expect(info.e164 == example.e164)
        #expect(info.region == example.regionCode)
        #expect(info.type == example.type)
        #expect(info.international == example.international)
        #expect("+\(info.countryCode)\(info.nationalNumber)" == info.e164)
    }

    @Test("Parsing the returned E.164 again gives the same information", arguments: validCases)
    func e164RoundTrips(_ example: ValidCase) throws {
        let info = try utility.parse(example.input, defaultRegion: example.region).get()
        #expect(utility.parse(info.e164, defaultRegion: nil) == .success(info))
    }

    @Test("Country code and national significant number are split as libphonenumber does")
    func countryCodeAndNationalNumber() throws {
        let italy = try utility.parse("+39 02 1234 5678", defaultRegion: nil).get()
        #expect(italy.countryCode == 39)
        #expect(italy.nationalNumber == "0212345678")  // Italian leading zero is significant
        let germany = try utility.parse("030 123456", defaultRegion: "DE").get()
        #expect(germany.countryCode == 49)
        #expect(germany.nationalNumber == "30123456")  // trunk prefix 0 is dropped
        let freephone = try utility.parse("+800 1234 5678").get()
        #expect(freephone.countryCode == 800)
        #expect(freephone.nationalNumber == "12345678")
    }

    @Test("An extension is kept in the international format but not in E.164")
    func extensionHandling() throws {
        let info = try utility.parse("+1 650 253 0000 ext. 123", defaultRegion: nil).get()
        #expect(info.e164 == "+16502530000")
        #expect(info.international == "+1 650-253-0000 ext. 123")
    }

    @Test("An empty default region means none; the region only guides parsing")
    func defaultRegionHandling() {
        #expect(utility.parse("+61 412 345 678", defaultRegion: "").map(\.e164) == .success("+61412345678"))
        // A valid US number typed with a Canadian default region is still accepted.
        #expect(utility.parse("+1 201 555 0123", defaultRegion: "CA").map(\.region) == .success("US"))
    }

    @Test("Input of exactly the maximum length is still parsed")
    func maximumLengthInput() {
        let number = "+44 20 7031 3000"
        let padded = number + String(repeating: " ", count: PhoneNumberUtility.maxInputLength - number.utf8.count)
        #expect(padded.utf8.count == 250)
        #expect(utility.parse(padded, defaultRegion: nil).map(\.e164) == .success("+442070313000"))
    }
}
