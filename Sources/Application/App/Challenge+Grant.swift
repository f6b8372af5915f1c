import CurlClient
import VerifyCore

// Placeholder of the grant provider(s): settings, reading and construction.

public struct GrantSettings: Sendable {
    public init() {}
}

extension Settings {
    static var grantSection: [any SettingEntry] { [] }
}

extension Configuration {
    mutating func readGrant(_ reader: inout SettingReader) {}
}

extension ChallengeFactory {
    static func grantVerifiers(_ parts: Parts, http: HTTPClient) throws -> [any ChallengeVerifier] { [] }
}
