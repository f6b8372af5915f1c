import Testing

@testable import API

/// The byte-level fast paths of ``RequestBody`` agree with the Foundation ones they skip.
@Suite struct RequestBodyTests {
    @Test(arguments: [
        ("application/json", true), ("Application/JSON; charset=utf-8", true), ("  application/json\t;x", true),
        ("application/json;", true), ("APPLICATION/JSON", true), ("\u{00A0}application/json", true),
        ("application/jsonx", false), ("application/json-patch+json", false), ("text/json", false),
        ("application\u{0F}json", false), ("application/js", false), ("", false), (";application/json", false),
        ("applicatıon/json", false),
    ])
    func recognisesJSONMediaTypes(_ contentType: String, _ expected: Bool) {
        #expect(RequestBody.isJSON(contentType) == expected)
    }

    @Test(arguments: [
        ("+15555550123", "+15555550123"), (" 123456 ", "123456"), ("\n\t42\r\n", "42"),
        ("\u{00A0}x\u{2003}", "x"), ("a b", "a b"), ("é ", "é"), ("  ", ""), ("", ""),
    ])
    func trimsWhitespaceLikeFoundation(_ text: String, _ expected: String) {
        #expect(RequestBody.trimmingWhitespace(text) == expected)
    }
}
