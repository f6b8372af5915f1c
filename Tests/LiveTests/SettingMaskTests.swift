import App
import Testing

/// `config check` output is pasted into tickets: what it shows of each kind of value.
@Suite struct SettingMaskTests {
    @Test(arguments: [
        ("postgres://pv:s3cret@db.internal:5432/pv?sslmode=require", "postgres://(redacted)@db.internal:5432/pv?sslmode=require"),
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
    }

    @Test func everySecretSettingIsMaskedWhole() {
        for setting in Settings.all where setting.secret { #expect(setting.mask == .secret) }
        #expect(Settings.named("PHONE_VERIFY_TEST_NUMBERS")?.mask == .testNumberCodes)
    }
}
