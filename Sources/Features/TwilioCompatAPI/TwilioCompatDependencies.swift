import API
import VerifyCore

/// What the Twilio-compatible API needs (``TwilioCompatFeature``); the application builds it
/// only when Twilio credentials are configured.
public struct TwilioCompatDependencies: Sendable {
    public var credentials: TwilioCompatCredentials
    /// Nil when the store does not keep the compatible API's records: every endpoint answers 501.
    public var service: TwilioCompatService?
    /// Base of the absolute URLs in responses (`url`, `links`, paging), without a trailing slash.
    public var baseURL: String

    public init(credentials: TwilioCompatCredentials, service: TwilioCompatService?, baseURL: String) {
        self.credentials = credentials
        self.service = service
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
    }
}
