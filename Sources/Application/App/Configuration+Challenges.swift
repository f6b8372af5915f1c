import VerifyCore

extension Configuration {
    /// The challenge policy, then each provider's settings; an enabled provider must be complete.
    mutating func readChallenges(_ reader: inout SettingReader) {
        challenges.mode = reader(Settings.challenge)
        challenges.providers = reader(Settings.challengeProviders) ?? []
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
