@testable import App
import Foundation
import Testing
import VerifyCore

/// The fraud guard's volume, proof-rate and steering settings, and the warning a production
/// deployment gets when it has no proof to ask for (docs/ABUSE.md).
@Suite struct FraudSettingsTests {
    @Test func defaultsAndOverrides() throws {
        let defaults = try Configuration.load(environment: [:])
        #expect(defaults.fraud.floor == 3 && defaults.fraud.proofRate == 10 && defaults.fraud.steerToWhatsApp)
        #expect(defaults.limits.rules(.phoneRequesterSend) == [LimitRule(quota: 1, window: 3600), LimitRule(quota: 2, window: 86_400)])
        let set = try Configuration.load(environment: [
            "PHONE_VERIFY_FRAUD_FLOOR": "5", "PHONE_VERIFY_FRAUD_PROOF_RATE": "0", "PHONE_VERIFY_FRAUD_STEER": "OFF",
        ])
        #expect(set.fraud.floor == 5 && set.fraud.proofRate == 0 && !set.fraud.steerToWhatsApp)
        #expect(throws: ConfigurationError.self) { try Configuration.load(environment: ["PHONE_VERIFY_FRAUD_STEER": "sms"]) }
        #expect(throws: ConfigurationError.self) { try Configuration.load(environment: ["PHONE_VERIFY_FRAUD_FLOOR": "0"]) }
    }

    @Test func productionNamesTheMissingProof() {
        var c = Configuration()
        #expect(c.missingProof.isEmpty)  // development
        c.mode = .production
        #expect(c.missingProof.count == 1 && c.missingProof[0].contains("no challenge provider is configured"))
        c.challenges.providers = ["turnstile"]
        #expect(c.missingProof.count == 1 && c.missingProof[0].contains("no device-bound proof or grant"))
        c.challenges.providers = ["turnstile", "grant"]
        #expect(c.missingProof.isEmpty)
        c.challenges.mode = .off
        #expect(c.missingProof.first?.contains("no challenge provider") == true)
    }
}
