import SettingsTable
import VerifyCore

extension Configuration {
    /// The challenge policy, then each provider's settings; an enabled provider must be complete.
    mutating func readChallenges(_ reader: inout SettingReader) {
        challenges.mode = reader(Settings.challenge)
        challenges.providers = reader.value(Settings.challengeProviders)
        if let soft = reader(Settings.challengeSoftThreshold) { challenges.policy.softThreshold = soft }
        if let factor = reader(Settings.challengeLiftFactor) { challenges.policy.liftFactor = factor }
        readSiteVerify(&reader)
        readAppAttest(&reader)
        readPlayIntegrity(&reader)
        readGrant(&reader)
        if challenges.mode == .always || challenges.mode == .suspicious, challenges.providers.isEmpty {
            reader.problem(Settings.challenge, "is \(challenges.mode!.rawValue) but \(Settings.challengeProviders.name) names no provider")
        }
    }
}

extension Configuration {
    /// What a production deployment lacks against SMS pumping and quota abuse: logged as a warning
    /// at start-up and listed by `config check` (docs/ABUSE.md, "Without a provider").
    public var missingProof: [String] {
        guard mode == .production else { return [] }
        if challenges.effectiveMode == .off {
            return [
                "no challenge provider is configured (\(Settings.challengeProviders.name): turnstile, hcaptcha, recaptcha, app_attest, "
                    + "play_integrity or grant): a watched destination cannot ask for proof, and strangers who spend a number's send "
                    + "quota block its owner until it frees (docs/ABUSE.md)"
            ]
        }
        if !challenges.providers.contains(where: ChallengeGate.boundProviders.contains) {
            return [
                "no device-bound proof or grant is configured (app_attest, play_integrity or grant): once a captcha farm spends a "
                    + "number's captcha share or a block's usual volume, its owner has no proof that goes further (docs/ABUSE.md)"
            ]
        }
        return []
    }
}
