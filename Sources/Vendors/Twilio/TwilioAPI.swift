import Gateways
import CurlClient
import VerifyCore

/// What every Twilio gateway (SMS, WhatsApp, voice) shares: a form POST to one of the account's
/// resources with its Basic auth, and the classification of the answer — a `sid` is sent;
/// throttling and 5xx are transient; the gateway's destination codes are permanent, its
/// unroutable codes unroutable; anything else (credentials, sender, account) lets another
/// gateway try.
struct TwilioAPI {
    let http: GatewayHTTP
    let gateway: String
    /// How refusals name the gateway ("twilio" for SMS, kept as it always was).
    let label: String
    let destinationErrors: Set<Int64>
    let unroutableErrors: Set<Int64>

    /// `resource`: e.g. "Messages.json" or "Calls.json"; `sidOf`: what the sid names in an error
    /// ("message", "call"); `message`: the refusal's text from Twilio's JSON (or the body), nil
    /// to keep Twilio's error code only.
    func post(
        baseURL: String, accountSID: String, authToken: String, resource: String, fields: [(String, String)], sidOf: String,
        message: (JSONValue?, HTTPClientResponse) -> String?
    ) -> GatewayResult {
        var request = HTTPClientRequest.form(
            url: baseURL + "/2010-04-01/Accounts/" + FormEncoding.percentEncode(accountSID) + "/" + resource, fields: fields)
        request.basicAuth = BasicAuth(user: accountSID, password: authToken)
        let response: HTTPClientResponse
        switch http.send(request, gateway: gateway) {
        case .failure(let failure): return failure.result
        case .success(let r): response = r
        }
        let body = GatewayHTTP.json(response)
        if response.isSuccess {
            guard let sid = body?["sid"]?.stringValue else {
                return .retryable(reason: "\(label): HTTP \(response.status) without a \(sidOf) sid", retryAfter: nil)
            }
            return .sent(via: gateway, providerMessageID: sid, status: .sent)
        }
        let code = body?["code"]?.intValue
        let detail = "code \(code.map(String.init) ?? "-")" + (message(body, response).map { ": " + $0 } ?? "")
        if let transient = GatewayHTTP.transient(response, gateway: gateway, detail: detail) { return transient }
        if let code, destinationErrors.contains(code) { return .permanent(reason: "\(label) \(detail)") }
        if let code, unroutableErrors.contains(code) { return .unroutable(reason: "\(label) \(detail)") }
        return .retryable(reason: "\(label): HTTP \(response.status) \(detail)", retryAfter: nil)
    }
}
