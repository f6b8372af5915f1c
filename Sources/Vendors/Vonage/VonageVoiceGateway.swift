import Gateways
import Foundation
import CurlClient
import VerifyCore

/// Settings of the Vonage Voice API gateway (verification codes by phone call).
public struct VonageVoiceConfiguration: Sendable {
    public var baseURL = "https://api.nexmo.com"
    /// The Vonage application's id and private key (JWT authentication).
    public var token: VonageApplicationToken
    /// The caller id (E.164 or digits): a Vonage number linked to the application.
    public var from: String
    /// Where Vonage posts call events (`started`, `answered`, `completed`, `failed`…), if reachable.
    public var eventURL: String?
    /// The name said in the intro ("Your Acme verification code is").
    public var appName: String
    /// The lines per language (`PHONE_VERIFY_VOICE_TEMPLATES_FILE` over the built-in ones).
    public var lines: [String: VoiceLines] = VoiceScriptComposer.builtIn
    /// The voice style of the `talk` actions (Vonage's `style`, 0 = the language's first voice).
    public var style: Int
    /// Seconds Vonage lets the phone ring before giving up (Vonage's `ringing_timer`, default 60).
    public var ringTimeoutSeconds: Int?

    public init(
        token: VonageApplicationToken, from: String, appName: String, baseURL: String = "https://api.nexmo.com",
        eventURL: String? = nil, style: Int = 0, ringTimeoutSeconds: Int? = nil,
        lines: [String: VoiceLines] = VoiceScriptComposer.builtIn
    ) {
        self.lines = lines
        self.token = token
        self.from = from
        self.appName = appName
        self.baseURL = baseURL
        self.eventURL = eventURL
        self.style = style
        self.ringTimeoutSeconds = ringTimeoutSeconds
    }
}

/// Calls through `POST /v1/calls` (JSON, `Authorization: Bearer <application JWT>`) with the
/// script as an inline NCCO of `talk` actions: the code is never in a URL Vonage would fetch.
/// The call's `uuid` is the provider id; the outcome arrives later at the event URL.
public struct VonageVoiceGateway: MessageGateway {
    public let name = "vonage-voice"
    let configuration: VonageVoiceConfiguration
    let composer: VoiceScriptComposer
    let http: GatewayHTTP
    let clock: any Clock

    public init(configuration: VonageVoiceConfiguration, http: GatewayHTTP, clock: any Clock) {
        self.configuration = configuration
        self.http = http
        self.clock = clock
        self.composer = VoiceScriptComposer(appName: configuration.appName, lines: configuration.lines)
    }

    /// Vonage numbers are digits without the leading "+".
    static func msisdn(_ number: String) -> String {
        number.hasPrefix("+") ? String(number.dropFirst()) : number
    }

    /// The JSON body of the call for `sms`.
    func body(for message: OutboundMessage) -> JSONValue {
        let c = configuration
        let script = composer.script(code: message.code, locale: message.locale)
        var members = [
            JSONMember("to", .array([.object([JSONMember("type", "phone"), JSONMember("number", .string(Self.msisdn(message.to)))])])),
            JSONMember("from", .object([JSONMember("type", "phone"), JSONMember("number", .string(Self.msisdn(c.from)))])),
            JSONMember("ncco", script.ncco(style: c.style)),
        ]
        if let url = c.eventURL {
            members += [JSONMember("event_url", .array([.string(url)])), JSONMember("event_method", "POST")]
        }
        if let timeout = c.ringTimeoutSeconds { members.append(JSONMember("ringing_timer", .int(Int64(timeout)))) }
        return .object(members)
    }

    public func send(_ message: OutboundMessage) -> GatewayResult {
        let jwt: String
        do { jwt = try configuration.token.token(at: clock.now()) } catch {
            return .retryable(reason: "\(name): cannot sign the application token", retryAfter: nil)
        }
        let request = HTTPClientRequest.json(
            url: configuration.baseURL + "/v1/calls", body: body(for: message).encoded(),
            headers: [(name: "Authorization", value: "Bearer " + jwt), (name: "Accept", value: "application/json")])
        let response: HTTPClientResponse
        switch http.send(request, gateway: name) {
        case .failure(let failure): return failure.result
        case .success(let r): response = r
        }
        let json = GatewayHTTP.json(response)
        if response.isSuccess {
            guard let uuid = json?["uuid"]?.stringValue else {
                return .retryable(reason: "\(name): HTTP \(response.status) without a call uuid", retryAfter: nil)
            }
            return .sent(via: name, providerMessageID: uuid, status: .sent)
        }
        // The title and the names of bad parameters only: `detail` and each parameter's `reason`
        // may echo the NCCO, which spells the code (docs/GATEWAYS.md).
        let title = json?["title"]?.stringValue ?? json?["error_title"]?.stringValue ?? "no JSON error"
        let names = json?["invalid_parameters"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        let detail = Redaction.scrub(
            title.prefix(100) + (names.isEmpty ? "" : " (invalid: " + names.prefix(5).map { String($0.prefix(40)) }.joined(separator: ", ") + ")"),
            secrets: [message.code])
        if let transient = GatewayHTTP.transient(response, gateway: name, detail: detail) { return transient }
        if response.status == 400 && Self.namesDestination(json) { return .permanent(reason: "\(name): \(detail)") }
        // 401/403 (application, key or account), other 4xx: this gateway cannot call now.
        return .retryable(reason: "\(name): HTTP \(response.status) \(detail)", retryAfter: nil)
    }

    /// A 400 whose `invalid_parameters` name the destination (`to`, `to[0].number`…).
    static func namesDestination(_ json: JSONValue?) -> Bool {
        let names = json?["invalid_parameters"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        return names.contains { $0 == "to" || $0.hasPrefix("to[") || $0.hasPrefix("to.") }
    }

    /// A call event's `status` → delivery status. `answered` → delivered (the script plays once
    /// answered); `busy`, `timeout`, `unanswered`, `rejected` and `cancelled` → undelivered;
    /// `failed` → failed; `started` and `ringing` → sent. `completed` says nothing new (it ends
    /// answered and unanswered calls alike) and is ignored.
    public static func deliveryStatus(_ status: String) -> DeliveryStatus? {
        switch status {
        case "answered": return .delivered
        case "busy", "timeout", "unanswered", "rejected", "cancelled": return .undelivered
        case "failed": return .failed
        case "started", "ringing": return .sent
        default: return nil
        }
    }
}
