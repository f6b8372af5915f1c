import CurlClient
import VerifyCore

// Placeholder of the playIntegrity provider(s): settings, reading and construction.

public struct PlayIntegritySettings: Sendable {
    public init() {}
}

extension Settings {
    static var playIntegritySection: [any SettingEntry] { [] }
}

extension Configuration {
    mutating func readPlayIntegrity(_ reader: inout SettingReader) {}
}

extension ChallengeFactory {
    static func playIntegrityVerifiers(_ parts: Parts, http: HTTPClient) throws -> [any ChallengeVerifier] { [] }
}
