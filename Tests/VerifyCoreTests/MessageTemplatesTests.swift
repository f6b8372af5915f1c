import Foundation
import Testing
import VerifyCore

@Suite struct MessageTemplatesTests {
    static let languages = ["en", "es", "fr", "de", "pt", "hi", "ar", "zh", "zh-hant", "ja", "ru"]
    static let gsm7Languages = ["en", "es", "fr", "de", "pt"]
    static let ucs2Languages = ["hi", "ar", "zh", "zh-hant", "ja", "ru"]

    private func body(
        _ composer: TemplateComposer = TemplateComposer(), code: String = "123456", locale: String?,
        region: String = "US", ttl: Int = 300
    ) -> String {
        composer.body(code: code, locale: locale, region: region, purpose: .signIn, ttlSeconds: ttl)
    }

    /// The WICG sms-one-time-codes parser: host and code from the last line, or nil.
    private func originBound(_ message: String) -> (host: String, code: String)? {
        guard let line = message.split(separator: "\n", omittingEmptySubsequences: false).last,
            line.first == "@"
        else { return nil }
        let fields = line.dropFirst().split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count >= 2, !fields[0].isEmpty, fields[1].first == "#", fields[1].count > 1 else { return nil }
        return (String(fields[0]), String(fields[1].dropFirst()))
    }

    // MARK: Templates

    @Test func everyListedLanguageHasABuiltInTemplate() {
        #expect(Set(MessageTemplates.builtIn.keys) == Set(Self.languages))
    }

    @Test(arguments: languages)
    func defaultTemplateRendersCodeAppAndMinutes(language: String) {
        let composer = TemplateComposer()
        #expect(composer.language(locale: language, region: "US") == language)
        let text = body(composer, locale: language)
        #expect(text.contains("123456"))
        #expect(text.contains("PhoneVerify"))
        #expect(text.contains("5"))
        #expect(!text.contains("{") && !text.contains("}"))
        #expect(!text.contains("\n"))
        #expect(MessageTemplates.problems(in: MessageTemplates.builtIn[language] ?? "").isEmpty)
    }

    @Test func englishText() {
        #expect(body(locale: "en") == "Your PhoneVerify code is 123456. It expires in 5 min. Don't share it.")
        #expect(body(TemplateComposer(appName: "Acme"), locale: nil) == "Your Acme code is 123456. It expires in 5 min. Don't share it.")
    }

    @Test(arguments: [(1, 1), (59, 1), (60, 1), (61, 2), (299, 5), (300, 5), (301, 6), (600, 10), (0, 1)])
    func minutesRoundUp(ttl: Int, minutes: Int) {
        #expect(body(locale: "en", ttl: ttl).contains("expires in \(minutes) min."))
    }

    @Test func arabicMinuteWordAgreesWithTheNumber() {
        #expect(body(locale: "ar", ttl: 300).contains("5 دقائق"))
        #expect(body(locale: "ar", ttl: 600).contains("10 دقائق"))
        #expect(body(locale: "ar", ttl: 60).contains("1 دقيقة"))
        #expect(body(locale: "ar", ttl: 900).contains("15 دقيقة"))
    }

    @Test func purposeDoesNotChangeTheBuiltInText() {
        let composer = TemplateComposer()
        let texts = Purpose.allCases.map {
            composer.body(code: "123456", locale: "fr", region: "FR", purpose: $0, ttlSeconds: 300)
        }
        #expect(Set(texts).count == 1)
    }

    @Test func valuesAreSubstitutedOnce() {
        let text = body(TemplateComposer(appName: "{code}{minutes}"), code: "987654", locale: "en")
        #expect(text == "Your {code}{minutes} code is 987654. It expires in 5 min. Don't share it.")
        #expect(MessageTemplates.render("{x} {code {code}} {", code: "1", app: "A", minutes: 2) == "{x} {code 1} {")
    }

    // MARK: Language choice

    @Test(arguments: [
        ("pt-BR", "US", "pt"), ("PT_br", "US", "pt"), ("pt", "ES", "pt"), ("es-419", "US", "es"),
        ("fr-CA", "CA", "fr"), ("de-CH", "CH", "de"), ("EN-gb", "FR", "en"), ("ru-KZ", "KZ", "ru"),
        ("zh", "US", "zh"), ("zh-Hans", "US", "zh"), ("zh-CN", "TW", "zh"), ("zh-Hans-HK", "HK", "zh"),
        ("zh-TW", "US", "zh-hant"), ("zh-HK", "US", "zh-hant"), ("zh-Hant", "CN", "zh-hant"),
        ("ja-JP", "US", "ja"), ("hi-IN", "IN", "hi"), ("ar-EG", "EG", "ar"),
        ("es-MX,es;q=0.9,en;q=0.8", "US", "es"), ("fr;q=0.9", "US", "fr"),
        // Unknown or malformed locales fall back to the region, then English.
        ("xx", "MX", "es"), ("it-IT", "IT", "en"), ("", "JP", "ja"), ("1234", "DE", "de"), ("*", "BR", "pt"),
    ] as [(String, String, String)])
    func localeChoosesTheLanguage(locale: String, region: String, language: String) {
        #expect(TemplateComposer().language(locale: locale, region: region) == language)
    }

    @Test(arguments: [
        ("US", "en"), ("GB", "en"), ("ES", "es"), ("MX", "es"), ("AR", "es"), ("CO", "es"), ("CL", "es"),
        ("PE", "es"), ("FR", "fr"), ("SN", "fr"), ("CI", "fr"), ("BE", "en"), ("CA", "en"), ("DE", "de"),
        ("AT", "de"), ("CH", "de"), ("BR", "pt"), ("PT", "pt"), ("AO", "pt"), ("MZ", "pt"), ("SA", "ar"),
        ("AE", "ar"), ("EG", "ar"), ("MA", "ar"), ("CN", "zh"), ("TW", "zh-hant"), ("HK", "zh-hant"),
        ("MO", "zh-hant"), ("SG", "en"), ("JP", "ja"), ("RU", "ru"), ("BY", "ru"), ("KZ", "ru"),
        ("IN", "en"), ("IT", "en"), ("ZZ", "en"), ("", "en"), ("mx", "es"),
    ] as [(String, String)])
    func regionChoosesTheLanguageWithoutLocale(region: String, language: String) {
        #expect(TemplateComposer().language(locale: nil, region: region) == language)
    }

    // MARK: Overrides

    @Test func overridesReplaceAndAdd() {
        let composer = TemplateComposer(overrides: [
            "es": "{app}: {code} ({minutes} min)",
            "it": "Il tuo codice {app} è {code}.",
            "pt-BR": "Seu código {app} é {code}.",
        ])
        #expect(body(composer, locale: "es-AR") == "PhoneVerify: 123456 (5 min)")
        #expect(body(composer, locale: "it-IT") == "Il tuo codice PhoneVerify è 123456.")
        #expect(body(composer, locale: nil, region: "IT") == "Il tuo codice PhoneVerify è 123456.")
        #expect(body(composer, locale: "pt-BR") == "Seu código PhoneVerify é 123456.")
        #expect(body(composer, locale: "pt-PT") == body(locale: "pt"))
        #expect(body(composer, locale: nil, region: "BR") == body(locale: "pt"))
        #expect(body(composer, locale: "en") == body(locale: "en"))
    }

    @Test func invalidOverridesAreIgnored() {
        let composer = TemplateComposer(overrides: [
            "es": "Tu clave es {codigo}", "fr": "Bonjour", "not a tag": "{code}", "de": "{code} {appname}",
        ])
        #expect(body(composer, locale: "es") == body(locale: "es"))
        #expect(body(composer, locale: "fr") == body(locale: "fr"))
        #expect(body(composer, locale: "de") == body(locale: "de"))
        #expect(composer.templates == MessageTemplates())
    }

    @Test func validateReportsProblems() {
        #expect(TemplateComposer.validate(overrides: [:]).isEmpty)
        #expect(TemplateComposer.validate(
            overrides: ["es": "{code}", "pt-BR": "{app} {code} {minutes}"], otpDomain: "login.example.com",
            androidAppHash: "FA+9qCX9VSu"
        ).isEmpty)
        let problems = TemplateComposer.validate(
            overrides: ["fr": "Bonjour", "de": "{code} {appname}", "not a tag": "{code}"],
            otpDomain: "https://example.com/", androidAppHash: "short")
        #expect(problems.count == 5)
        #expect(problems.contains { $0.contains("\"fr\"") && $0.contains("{code}") })
        #expect(problems.contains { $0.contains("\"de\"") && $0.contains("{appname}") })
        #expect(problems.contains { $0.contains("\"not a tag\"") })
        #expect(problems.contains { $0.contains("OTP domain") })
        #expect(problems.contains { $0.contains("app hash") })
        #expect(TemplateComposer.validate(overrides: [:], otpDomain: "exa mple.com").count == 1)
        #expect(TemplateComposer.validate(overrides: [:], otpDomain: "example.com:8443").count == 1)
        #expect(TemplateComposer.validate(overrides: [:], androidAppHash: "FA+9qCX9VS_").count == 1)
    }

    // MARK: Origin-bound line and app hash

    @Test(arguments: languages)
    func originBoundLineIsTheLastLine(language: String) {
        let text = body(TemplateComposer(otpDomain: "example.com"), locale: language)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "@example.com #123456")
        #expect(lines.count == 3 && lines[1].isEmpty)
        #expect(lines[0] == Substring(body(locale: language)))
        let parsed = originBound(text)
        #expect(parsed?.host == "example.com" && parsed?.code == "123456")
    }

    @Test func appHashAloneIsTheLastLineAfterABlankLine() {
        let text = body(TemplateComposer(androidAppHash: "FA+9qCX9VSu"), locale: "en")
        #expect(text == "Your PhoneVerify code is 123456. It expires in 5 min. Don't share it.\n\nFA+9qCX9VSu")
        #expect(originBound(text) == nil)
    }

    @Test func appHashGoesJustBeforeTheOriginBoundLine() {
        let composer = TemplateComposer(otpDomain: "example.com", androidAppHash: "FA+9qCX9VSu")
        let text = body(composer, locale: "en")
        #expect(text == """
            Your PhoneVerify code is 123456. It expires in 5 min. Don't share it.

            FA+9qCX9VSu
            @example.com #123456
            """)
        let parsed = originBound(text)
        #expect(parsed?.host == "example.com" && parsed?.code == "123456")
        // SMS Retriever: the hash is in the message, which fits in 140 bytes (one segment).
        #expect(text.contains("FA+9qCX9VSu") && SMSSegments.measure(text).isSingleSegment)
    }

    @Test func blankSettingsAddNoLines() {
        let composer = TemplateComposer(otpDomain: "  ", androidAppHash: "")
        #expect(composer.otpDomain == nil && composer.androidAppHash == nil)
        #expect(body(composer, locale: "en") == body(locale: "en"))
        let overridden = TemplateComposer(otpDomain: "example.com", overrides: ["en": "Code {code}\n\n"])
        #expect(body(overridden, locale: "en") == "Code 123456\n\n@example.com #123456")
    }

    // MARK: Segments

    private func worstCase(_ language: String, domain: String? = nil, hash: String? = nil) -> SMSSegments {
        let composer = TemplateComposer(appName: "PhoneVerify", otpDomain: domain, androidAppHash: hash)
        return SMSSegments.measure(body(composer, code: "1234567890", locale: language, ttl: 600))
    }

    @Test(arguments: languages)
    func everyDefaultTemplateFitsOneSegment(language: String) {
        let measured = worstCase(language)
        #expect(measured.segments == 1)
        #expect(measured.encoding == (Self.gsm7Languages.contains(language) ? .gsm7 : .ucs2))
    }

    @Test(arguments: gsm7Languages)
    func gsm7LanguagesFitOneSegmentWithTheOriginBoundLineAndAppHash(language: String) {
        #expect(worstCase(language, domain: "example.com").encoding == .gsm7)
        #expect(worstCase(language, domain: "example.com").segments == 1)
        #expect(worstCase(language, domain: "example.com", hash: "FA+9qCX9VSu").segments == 1)
    }

    @Test(arguments: ucs2Languages)
    func ucs2LanguagesFitSeventyUnitsWithoutTheDomainLine(language: String) {
        #expect(worstCase(language).units <= 70)
    }

    /// The table in docs/MESSAGES.md: units with a 10-digit code, "PhoneVerify", 10 minutes.
    @Test(arguments: [
        ("en", 74, 100, 87), ("es", 73, 99, 86), ("fr", 81, 107, 94), ("de", 87, 113, 100),
        ("pt", 75, 101, 88), ("hi", 66, 92, 79), ("ar", 68, 94, 81), ("zh", 43, 69, 56),
        ("zh-hant", 43, 69, 56), ("ja", 55, 81, 68), ("ru", 67, 93, 80),
    ] as [(String, Int, Int, Int)])
    func documentedLengths(language: String, plain: Int, withDomain: Int, withHash: Int) {
        #expect(worstCase(language).units == plain)
        #expect(worstCase(language, domain: "example.com").units == withDomain)
        #expect(worstCase(language, hash: "FA+9qCX9VSu").units == withHash)
        #expect(worstCase(language, domain: "example.com", hash: "FA+9qCX9VSu").units == withDomain + 12)
    }

    @Test func ucs2CombinationsThatTakeTwoSegments() {
        let twoWithDomain = Self.ucs2Languages.filter { worstCase($0, domain: "example.com").segments == 2 }
        #expect(twoWithDomain == ["hi", "ar", "ja", "ru"])
        let twoWithHash = Self.ucs2Languages.filter { worstCase($0, hash: "FA+9qCX9VSu").segments == 2 }
        #expect(twoWithHash == ["hi", "ar", "ru"])
        let twoWithBoth = Self.ucs2Languages.filter {
            worstCase($0, domain: "example.com", hash: "FA+9qCX9VSu").segments == 2
        }
        #expect(twoWithBoth == Self.ucs2Languages)
    }
}
