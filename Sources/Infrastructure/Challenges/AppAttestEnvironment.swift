/// Which App Attest environment a deployment accepts keys from (`PHONE_VERIFY_APP_ATTEST_ENVIRONMENT`).
/// Apps signed for development attest with the development aaguid; App Store, TestFlight and
/// enterprise builds with the production one.
public enum AppAttestEnvironment: String, Sendable, CaseIterable {
    case production
    case development

    /// The authenticator data's aaguid for this environment: "appattestdevelop", or "appattest"
    /// followed by seven zero bytes.
    public var aaguid: [UInt8] {
        switch self {
        case .development: return Array("appattestdevelop".utf8)
        case .production: return Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
        }
    }
}
