import CurlClient
import Testing

/// `application/x-www-form-urlencoded` encoding is exact and round-trips.
@Suite struct FormEncodingTests {
    @Test(arguments: [
        ("abcXYZ019-._~", "abcXYZ019-._~"),
        ("a b", "a%20b"),
        ("1+1=2", "1%2B1%3D2"),
        ("a&b", "a%26b"),
        ("100%", "100%25"),
        ("é", "%C3%A9"),
        ("📱", "%F0%9F%93%B1"),
        ("*!'()/?:@", "%2A%21%27%28%29%2F%3F%3A%40"),
        ("line\nbreak", "line%0Abreak"),
        ("", ""),
    ])
    func percentEncodesEverythingButUnreserved(input: String, expected: String) {
        #expect(FormEncoding.percentEncode(input) == expected)
    }

    @Test func encodesPairsInOrder() {
        let encoded = FormEncoding.encode([("To", "+44 7700 900123"), ("Body", "a&b=c"), ("empty", "")])
        #expect(encoded == "To=%2B44%207700%20900123&Body=a%26b%3Dc&empty=")
        #expect(FormEncoding.encode([]) == "")
    }

    @Test(arguments: [
        [("To", "+15550100"), ("Body", "Your code is 123456")],
        [("unicode", "héllo wörld 日本語 📱"), ("ключ", "значение")],
        [("plus", "a+b"), ("amp", "a&b"), ("eq", "a=b=c"), ("space", "  lead and trail  ")],
        [("percent", "%41%zz%"), ("same", "1"), ("same", "2")],
        [("", ""), ("k", "")],
    ])
    func roundTrips(fields: [(String, String)]) {
        let decoded = FormEncoding.decode(FormEncoding.encode(fields))
        #expect(decoded.map { [$0.0, $0.1] } == fields.map { [$0.0, $0.1] })
    }

    @Test func decodeAcceptsBrowserStyleAndMalformedInput() {
        let decoded = FormEncoding.decode("a+b=c+d&&flag&x=%41%2&y=%zz&z=%e9&=v&w=1=2")
        #expect(decoded.map { [$0.0, $0.1] } == [
            ["a b", "c d"], ["flag", ""], ["x", "A%2"], ["y", "%zz"], ["z", "\u{FFFD}"], ["", "v"], ["w", "1=2"],
        ])
    }
}

/// Basic credentials encode like RFC 7617 says.
@Suite struct BasicAuthTests {
    @Test func matchesRFCExample() {
        #expect(BasicAuth.header(user: "Aladdin", password: "open sesame") == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        #expect(BasicAuth(user: "Aladdin", password: "open sesame").headerValue == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    }

    @Test(arguments: [
        ("", "", "Basic Og=="),
        ("a", "", "Basic YTo="),
        ("ab", "", "Basic YWI6"),
        ("abc", "", "Basic YWJjOg=="),
        ("test", "123£", "Basic dGVzdDoxMjPCow=="),
    ])
    func paddingAndUTF8(user: String, password: String, expected: String) {
        #expect(BasicAuth.header(user: user, password: password) == expected)
    }
}
