import CurlClient
import VerifyCore

// Placeholder of the appAttest provider(s): settings, reading and construction.

public struct AppAttestSettings: Sendable {
    public init() {}
}

extension Settings {
    static var appAttestSection: [any SettingEntry] { [] }
}

extension Configuration {
    mutating func readAppAttest(_ reader: inout SettingReader) {}
}

extension ChallengeFactory {
    static func appAttestVerifiers(_ parts: Parts) throws -> [any ChallengeVerifier] { [] }
}
