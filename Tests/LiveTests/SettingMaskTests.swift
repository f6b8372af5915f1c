@testable import App
import VerifyCore
import SettingsTable
import Testing

/// `config check` output is pasted into tickets: what it shows of each kind of value.
@Suite struct SettingMaskTests {
    @Test(arguments: [
        ("postgres://pv:s3cret@db.internal:5432/pv?sslmode=require", "postgres://(redacted)@db.internal:5432/pv?(redacted)"),
        // Queries carry tokens (and libpq passwords): found by an attack review.
        ("https://hooks.example/send?token=s3cr3t", "https://hooks.example/send?(redacted)"),
        ("sqlite:/tmp/x.db?password=s3cr3t", "sqlite:/tmp/x.db?(redacted)"),
        ("https://a.example/?t=1#frag,https://b.example", "https://a.example/?(redacted)#frag,https://b.example"),
        ("https://user:pass@auth.example/jwks.json", "https://(redacted)@auth.example/jwks.json"),
        ("https://token@host.example", "https://(redacted)@host.example"),
        ("https://host.example/path@not-userinfo", "https://host.example/path@not-userinfo"),
        ("https://a:b@one.example,https://two.example,http://c@three.example/x", "https://(redacted)@one.example,https://two.example,http://(redacted)@three.example/x"),
        ("plain value", "plain value"),
    ])
    func urlCredentialsAreRedacted(value: String, shown: String) {
        #expect(SettingMask.urlCredentials.display(value) == shown)
    }

    @Test func testNumbersKeepTheirNumbersOnly() {
        #expect(SettingMask.testNumberCodes.display("+15555550100:123456,+15555550101:654321") == "+15555550100:(redacted),+15555550101:(redacted)")
        // Mistyped entries: nothing tells the code from the number, so nothing is shown.
        #expect(SettingMask.testNumberCodes.display("+15555550100=654321,654321:+15555550100,+1555;654321") == "(redacted),(redacted),(redacted)")
    }

    @Test func everySecretSettingIsMaskedWhole() {
        for setting in Settings.all where setting.secret { #expect(setting.mask == .secret) }
        #expect(Settings.named("PHONE_VERIFY_TEST_NUMBERS")?.mask == .testNumberCodes)
    }
}

/// Configuration errors reach logs and `config check`: they never quote a code or a key.
@Suite struct ConfigurationErrorSecrecyTests {
    @Test(arguments: ["+15555550100=654321", "654321:+15555550100", "+15555550100:12,:777777", "+1555;654321:1"])
    func malformedTestNumbersAreNotQuoted(text: String) throws {
        let error = #expect(throws: (any Error).self) { try TestNumbers.parse(text) }
        let message = String(describing: error)
        #expect(!message.contains("654321") && !message.contains("777777"), "\(message)")
    }

    @Test func aTestNumberListedTwiceWithDifferentCodesIsRefused() {
        #expect(throws: (any Error).self) { try TestNumbers.parse("+15555550100:123456,+15555550100:654321") }
    }

    @Test func anUnknownScopeIsNotQuoted() throws {
        var problems: [String] = []
        do { _ = try Configuration.load(environment: ["PHONE_VERIFY_SCOPED_API_KEYS": "s3cr3t-key-0123456789=metrics"]) } catch let error as ConfigurationError {
            problems = error.problems
        }
        #expect(problems.contains { $0.contains("unknown scope") })
        #expect(!problems.joined().contains("s3cr3t"))
    }
}
