import HTTPMessages
import VerifyCore

/// How vendors' status callbacks are authenticated; each check is a constant-time comparison.
public struct CallbackAuthenticators: Sendable {
    /// The public base URL vendors call (for Twilio's signature, which covers the full URL).
    public var publicURL: String
    /// (full URL, form fields, X-Twilio-Signature) → authentic?
    public var twilio: (@Sendable (String, [(String, String)], String) -> Bool)?
    /// The `token` query parameter of Vonage receipts → authentic?
    public var vonage: (@Sendable (String) -> Bool)?

    public init(
        publicURL: String, twilio: (@Sendable (String, [(String, String)], String) -> Bool)? = nil,
        vonage: (@Sendable (String) -> Bool)? = nil
    ) {
        self.publicURL = publicURL
        self.twilio = twilio
        self.vonage = vonage
    }
}

/// Delivery receipts from vendors: `POST /v1/webhooks/twilio/status` (signed with
/// X-Twilio-Signature; bad signatures get 403) and `GET|POST /v1/webhooks/vonage/dlr?token=…`.
struct DeliveryCallbackRoutes: RouteGroup {
    let receipts: DeliveryReceipts
    let auth: CallbackAuthenticators

    func register(in router: inout Router) {
        let receipts = self.receipts
        let auth = self.auth
        if let twilio = auth.twilio {
            let path = "/v1/webhooks/twilio/status"
            router.add("POST", path) { request, _ in
                let fields = FormBody.fields(request.body)
                guard let signature = request.headers["X-Twilio-Signature"], twilio(auth.publicURL + path, fields, signature) else {
                    throw VerifyError(.forbidden, "invalid X-Twilio-Signature")
                }
                let value = { (name: String) in fields.first { $0.0 == name }?.1 }
                if let sid = value("MessageSid") ?? value("SmsSid"), let status = value("MessageStatus").flatMap(DeliveryReceipts.twilioStatus) {
                    let error = value("ErrorCode").map { "twilio error \($0)" }
                    try receipts.record(gateway: "twilio", providerMessageID: sid, status: status, error: error, to: value("To"))
                }
                return HTTPResponse(status: 204)
            }
        }
        if let vonage = auth.vonage {
            let handler: RouteHandler = { request, _ in
                guard let token = request.query["token"], vonage(token) else {
                    throw VerifyError(.forbidden, "invalid callback token")
                }
                var fields = request.query.map { ($0.key, $0.value) }
                if request.headers["Content-Type"]?.lowercased().hasPrefix("application/json") == true,
                    case .object(let members)? = try? JSONValue.parse(request.body)
                {
                    fields += members.compactMap { m in m.value.stringValue.map { (m.key, $0) } }
                } else if !request.body.isEmpty {
                    fields += FormBody.fields(request.body)
                }
                let value = { (name: String) in fields.first { $0.0 == name }?.1 }
                if let id = value("messageId") ?? value("message-id"), let status = value("status").flatMap(DeliveryReceipts.vonageStatus) {
                    let code = value("err-code").flatMap { $0 == "0" ? nil : "vonage error \($0)" }
                    try receipts.record(gateway: "vonage", providerMessageID: id, status: status, error: code, to: value("msisdn").map { "+" + $0 })
                }
                return HTTPResponse(status: 204)
            }
            router.add("GET", "/v1/webhooks/vonage/dlr", handler)
            router.add("POST", "/v1/webhooks/vonage/dlr", handler)
        }
    }
}
