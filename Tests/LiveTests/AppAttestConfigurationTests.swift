import App
import Foundation
import Testing

/// `PHONE_VERIFY_APP_ATTEST_*` and the App Attest routes of the running application.
@Suite struct AppAttestConfigurationTests {
    static let enabled = ["PHONE_VERIFY_CHALLENGE_PROVIDERS": "app_attest"]

    @Test func appIDsAreRequiredOnceTheProviderIsEnabled() throws {
        #expect(try Configuration.load(environment: [:]).challenges.appAttest.appIDs.isEmpty)
        let error = #expect(throws: ConfigurationError.self) { try Configuration.load(environment: Self.enabled) }
        #expect(error?.problems.contains { $0.contains("PHONE_VERIFY_APP_ATTEST_APP_IDS") } == true)
    }

    @Test func appIDsAndEnvironmentAreRead() throws {
        let c = try Configuration.load(environment: Self.enabled.merging([
            "PHONE_VERIFY_APP_ATTEST_APP_IDS": "ABCDE12345.com.example.app, 6MURL8TA57.de.example.other-app",
            "PHONE_VERIFY_APP_ATTEST_ENVIRONMENT": "development",
        ]) { $1 })
        #expect(c.challenges.appAttest.appIDs == ["ABCDE12345.com.example.app", "6MURL8TA57.de.example.other-app"])
        #expect(c.challenges.appAttest.environment == .development)
        let defaults = try Configuration.load(environment: Self.enabled.merging(["PHONE_VERIFY_APP_ATTEST_APP_IDS": "ABCDE12345.app"]) { $1 })
        #expect(defaults.challenges.appAttest.environment == .production)
    }

    @Test(arguments: [
        ("PHONE_VERIFY_APP_ATTEST_APP_IDS", "com.example.app"), ("PHONE_VERIFY_APP_ATTEST_APP_IDS", "abcde12345.com.example.app"),
        ("PHONE_VERIFY_APP_ATTEST_APP_IDS", "ABCDE12345."), ("PHONE_VERIFY_APP_ATTEST_APP_IDS", "ABCDE12345.com/example"),
        ("PHONE_VERIFY_APP_ATTEST_ENVIRONMENT", "sandbox"),
    ])
    func badValuesAreReportedWithTheVariable(_ name: String, _ value: String) {
        var environment = Self.enabled.merging(["PHONE_VERIFY_APP_ATTEST_APP_IDS": "ABCDE12345.com.example.app"]) { $1 }
        environment[name] = value
        let error = #expect(throws: ConfigurationError.self) { try Configuration.load(environment: environment) }
        #expect(error?.problems.contains { $0.contains(name) } == true, "\(value)")
    }

    @Test func theRoutesAreServedOnlyWhenTheProviderIsEnabled() throws {
        let off = try LiveServer()
        defer { off.stop() }
        #expect(try off.call("POST", "/v1/app-attest/challenge").status == 404)

        let on = try LiveServer(environment: Self.enabled.merging(["PHONE_VERIFY_APP_ATTEST_APP_IDS": "ABCDE12345.com.example.app"]) { $1 })
        defer { on.stop() }
        let issued = try on.call("POST", "/v1/app-attest/challenge")
        #expect(issued.status == 201)
        let nonce = issued.json["challenge"]?.stringValue ?? ""
        #expect(nonce.utf8.count == 54)
        // A nonce of this deployment, then an attestation that is not one.
        let refused = try on.call(
            "POST", "/v1/app-attest/attestations",
            json: #"{"key_id":"YmbJO4x5nEHUvncp9zdWuVZjNBEMgJn3cdSToAXQe3M=","attestation":"oA==","challenge":"\#(nonce)"}"#)
        #expect(refused.status == 400)
        #expect(refused.errorCode == "invalid_request")
        let foreign = try on.call(
            "POST", "/v1/app-attest/attestations",
            json: #"{"key_id":"YmbJO4x5nEHUvncp9zdWuVZjNBEMgJn3cdSToAXQe3M=","attestation":"oWNmbXRvYXBwbGUtYXBwYXR0ZXN0","challenge":"wurzelpfropf"}"#)
        #expect(foreign.status == 400)
    }
}
