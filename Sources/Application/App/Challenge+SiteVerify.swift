import CurlClient
import VerifyCore

// Placeholder of the siteVerify provider(s): settings, reading and construction.

public struct SiteVerifySettings: Sendable {
    public init() {}
}

extension Settings {
    static var siteVerifySection: [any SettingEntry] { [] }
}

extension Configuration {
    mutating func readSiteVerify(_ reader: inout SettingReader) {}
}

extension ChallengeFactory {
    static func siteVerifyVerifiers(_ name: String, _ parts: Parts, http: HTTPClient) throws -> [any ChallengeVerifier] { [] }
}
