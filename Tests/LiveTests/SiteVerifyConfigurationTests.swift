import App
import Foundation
import Testing

@Suite struct SiteVerifyConfigurationTests {
    static let turnstile = [
        "PHONE_VERIFY_CHALLENGE_PROVIDERS": "turnstile",
        "PHONE_VERIFY_TURNSTILE_SITE_KEY": "0x4AAAAAAA-site",
        "PHONE_VERIFY_TURNSTILE_SECRET": "0x4AAAAAAA-secret-value",
    ]

    func problems(_ environment: [String: String]) -> [String] {
        do {
            _ = try Configuration.load(environment: environment)
            return []
        } catch let error as ConfigurationError {
            return error.problems
        } catch {
            Issue.record("unexpected \(error)")
            return []
        }
    }

    @Test func anEnabledProviderIsReadWithItsDefaults() throws {
        let c = try Configuration.load(environment: Self.turnstile.merging(["PHONE_VERIFY_TURNSTILE_HOSTNAMES": "app.example.com, www.example.com"]) { $1 })
        let turnstile = try #require(c.challenges.siteVerify.turnstile)
        #expect(turnstile.siteKey == "0x4AAAAAAA-site" && turnstile.secret == "0x4AAAAAAA-secret-value")
        #expect(turnstile.verifyURL == "https://challenges.cloudflare.com/turnstile/v0/siteverify")
        #expect(turnstile.hostnames == ["app.example.com", "www.example.com"])
        #expect(c.challenges.siteVerify.hcaptcha == nil && c.challenges.siteVerify.recaptcha == nil)
    }

    @Test(arguments: [
        ("turnstile", "PHONE_VERIFY_TURNSTILE_SECRET"), ("turnstile", "PHONE_VERIFY_TURNSTILE_SITE_KEY"),
        ("hcaptcha", "PHONE_VERIFY_HCAPTCHA_SECRET"), ("recaptcha", "PHONE_VERIFY_RECAPTCHA_SECRET"),
    ])
    func aMissingKeyOfAnEnabledProviderIsAProblem(provider: String, missing: String) {
        let prefix = "PHONE_VERIFY_" + provider.uppercased()
        var environment = [
            "PHONE_VERIFY_CHALLENGE_PROVIDERS": provider, prefix + "_SITE_KEY": "site", prefix + "_SECRET": "secret",
            "PHONE_VERIFY_RECAPTCHA_ACTION": "start",
        ]
        environment[missing] = nil
        #expect(problems(environment).contains { $0.hasPrefix(missing) && $0.contains("required") })
    }

    @Test func aDisabledProviderNeedsNothing() throws {
        let c = try Configuration.load(environment: ["PHONE_VERIFY_TURNSTILE_SITE_KEY": "site"])
        #expect(c.challenges.siteVerify.turnstile == nil)
    }

    @Test func reCaptchaV3AndEnterpriseNeedAnAction() {
        let v3 = ["PHONE_VERIFY_CHALLENGE_PROVIDERS": "recaptcha", "PHONE_VERIFY_RECAPTCHA_SITE_KEY": "site", "PHONE_VERIFY_RECAPTCHA_SECRET": "secret"]
        #expect(problems(v3).contains { $0.hasPrefix("PHONE_VERIFY_RECAPTCHA_ACTION") })
        var v2 = v3
        v2["PHONE_VERIFY_RECAPTCHA_VERSION"] = "v2"
        #expect(problems(v2).isEmpty)
        v2["PHONE_VERIFY_RECAPTCHA_MIN_SCORE"] = "0.7"
        #expect(problems(v2).contains { $0.hasPrefix("PHONE_VERIFY_RECAPTCHA_MIN_SCORE") })
    }

    @Test func reCaptchaEnterpriseNeedsProjectAndAPIKeyNotASecret() throws {
        var environment = [
            "PHONE_VERIFY_CHALLENGE_PROVIDERS": "recaptcha", "PHONE_VERIFY_RECAPTCHA_VERSION": "Enterprise",
            "PHONE_VERIFY_RECAPTCHA_SITE_KEY": "site", "PHONE_VERIFY_RECAPTCHA_ACTION": "start",
        ]
        let missing = problems(environment)
        #expect(missing.contains { $0.hasPrefix("PHONE_VERIFY_RECAPTCHA_PROJECT_ID") })
        #expect(missing.contains { $0.hasPrefix("PHONE_VERIFY_RECAPTCHA_API_KEY") })
        #expect(!missing.contains { $0.hasPrefix("PHONE_VERIFY_RECAPTCHA_SECRET") })
        environment["PHONE_VERIFY_RECAPTCHA_PROJECT_ID"] = "my-project"
        environment["PHONE_VERIFY_RECAPTCHA_API_KEY"] = "AIza-key"
        let c = try Configuration.load(environment: environment)
        #expect(c.challenges.siteVerify.recaptchaVersion == .enterprise)
        #expect(c.challenges.siteVerify.recaptcha?.verifyURL == "https://recaptchaenterprise.googleapis.com")
        #expect(c.challenges.siteVerify.recaptchaMinScore == 0.5)
    }

    @Test func productionRefusesAPlainHTTPVerifyURLOffLoopback() throws {
        let production = Self.turnstile.merging(["PHONE_VERIFY_MODE": "production"]) { $1 }
        let remote = production.merging(["PHONE_VERIFY_TURNSTILE_VERIFY_URL": "http://captcha.example.com/siteverify"]) { $1 }
        #expect(problems(remote).contains { $0.hasPrefix("PHONE_VERIFY_TURNSTILE_VERIFY_URL") && $0.contains("https") })
        let loopback = production.merging(["PHONE_VERIFY_TURNSTILE_VERIFY_URL": "http://127.0.0.1:9999/siteverify"]) { $1 }
        #expect(!problems(loopback).contains { $0.hasPrefix("PHONE_VERIFY_TURNSTILE_VERIFY_URL") })
        // Development mode takes any http(s) URL, for a local fake.
        #expect(try Configuration.load(environment: Self.turnstile.merging(["PHONE_VERIFY_TURNSTILE_VERIFY_URL": "http://captcha.example.com"]) { $1 })
            .challenges.siteVerify.turnstile?.verifyURL == "http://captcha.example.com")
    }

    @Test func secretsAreNeverEchoed() {
        var environment = Self.turnstile
        environment["PHONE_VERIFY_TURNSTILE_VERIFY_URL"] = "not a url"
        let text = problems(environment).joined(separator: "\n")
        #expect(text.contains("PHONE_VERIFY_TURNSTILE_VERIFY_URL"))
        #expect(!text.contains("0x4AAAAAAA-secret-value"))
    }
}
