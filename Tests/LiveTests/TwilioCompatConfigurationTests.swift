import App
import Foundation
import Testing

@Suite struct TwilioCompatConfigurationTests {
    static let account = "AC" + String(repeating: "0123456789abcdef", count: 2)
    static let key = "SK" + String(repeating: "fedcba9876543210", count: 2)

    @Test func offUnlessSet() throws {
        #expect(try Configuration.load(environment: [:]).twilioCompatCredentials == nil)
        let c = try Configuration.load(environment: [
            "PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS": "\(Self.account):token-0123456789abcdef, \(Self.key):secret-0123456789abcdef@\(Self.account)",
        ])
        #expect(c.twilioCompatCredentials?.entries.map(\.accountSID) == [Self.account, Self.account])
        #expect(c.unknownVariables.isEmpty)
    }

    @Test(arguments: [
        "not-a-sid:token", "\(account)", "\(account):", "\(key):secret", "\(key):secret@ACnope",
        "\(account):token@AC" + String(repeating: "1", count: 32), "\(account):a,\(account):b", ",",
    ])
    func badValuesAreReportedWithTheVariable(_ value: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS": value])
        }
        #expect(error?.problems.contains { $0.contains("PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS") } == true, "\(value)")
        #expect(error?.description.contains("token") != true, "secrets are not echoed")
    }

    @Test func productionRefusesShortSecrets() {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: [
                "PHONE_VERIFY_MODE": "production", "PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS": "\(Self.account):short",
            ])
        }
        #expect(error?.problems.contains { $0.contains("PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS") && $0.contains("16") } == true)
    }

    /// Custom codes are off for every account unless the operator lists it; a listed account must
    /// be one of the credentials' (a typo would otherwise silently allow nobody).
    @Test func customCodeAccountsAreNoneByDefaultAndMustBeKnown() throws {
        let credentials = "\(Self.account):token-0123456789abcdef"
        #expect(try Configuration.load(environment: ["PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS": credentials]).twilioCompatCustomCodeAccounts.isEmpty)
        let allowed = try Configuration.load(environment: [
            "PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS": credentials, "PHONE_VERIFY_TWILIO_COMPAT_CUSTOM_CODE_ACCOUNTS": " \(Self.account) ",
        ])
        #expect(allowed.twilioCompatCustomCodeAccounts == [Self.account])
        let unknown = "AC" + String(repeating: "1", count: 32)
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: [
                "PHONE_VERIFY_TWILIO_COMPAT_CREDENTIALS": credentials, "PHONE_VERIFY_TWILIO_COMPAT_CUSTOM_CODE_ACCOUNTS": unknown,
            ])
        }
        #expect(error?.problems.contains { $0.contains("PHONE_VERIFY_TWILIO_COMPAT_CUSTOM_CODE_ACCOUNTS") && $0.contains(unknown) } == true)
    }
}
