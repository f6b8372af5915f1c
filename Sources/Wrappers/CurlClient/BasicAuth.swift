import Encoding

/// HTTP Basic credentials (RFC 7617), as sent by Twilio- and Vonage-style APIs.
public struct BasicAuth: Sendable, Equatable {
    /// The user name (account SID, API key); must not contain a colon.
    public var user: String
    /// The password or auth token, sent as is.
    public var password: String

    /// Creates credentials.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// The `Authorization` header value: "Basic " + Base64(UTF-8 "user:password").
    public var headerValue: String { Self.header(user: user, password: password) }

    /// The `Authorization` header value for these credentials, e.g.
    /// `header(user: "Aladdin", password: "open sesame")` is "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==".
    public static func header(user: String, password: String) -> String {
        "Basic " + Base64.encode(Array("\(user):\(password)".utf8))
    }
}
