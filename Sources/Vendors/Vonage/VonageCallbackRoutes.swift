import API
import HTTPMessages
import VerifyCore

/// Vonage's webhooks, each authenticated before its body is parsed, each feeding
/// `DeliveryReceipts` under the gateway name the outbox row holds:
/// - `GET|POST /v1/webhooks/vonage/dlr?token=…`: SMS delivery receipts (the callback token);
/// - `POST /v1/webhooks/vonage/whatsapp`: Messages API statuses;
/// - `POST /v1/webhooks/vonage/voice`: Voice API call events (both: a signed JWT in
///   `Authorization`, or the callback token in the URL).
struct VonageCallbackRoutes: RouteCollection {
    static let receiptPath = "/v1/webhooks/vonage/dlr"
    static let voicePath = "/v1/webhooks/vonage/voice"

    let receipts: DeliveryReceipts
    let callbacks: VonageCallbacks

    func register(in router: inout Router) {
        if let check = callbacks.receipts {
            let handler = receiptHandler(check)
            router.add("GET", Self.receiptPath, handler)
            router.add("POST", Self.receiptPath, handler)
        }
        guard let vonage = callbacks.channels else { return }
        let receipts = self.receipts
        if let map = vonage.whatsAppStatus {
            router.add("POST", "/v1/webhooks/vonage/whatsapp") { request, _ in
                guard let event = try Self.event(request, vonage) else { return HTTPResponse(status: 204) }
                if let id = event["message_uuid"]?.stringValue, let value = event["status"]?.stringValue, let status = map(value) {
                    let title = event["error"]?["title"].flatMap { $0.stringValue ?? $0.intValue.map(String.init) }
                    let error = status == .undelivered || status == .failed
                        ? "vonage whatsapp \(value)" + (title.map { " (error \(Self.short($0)))" } ?? "") : nil
                    try receipts.record(
                        gateway: "vonage-whatsapp", providerMessageID: id, status: status, error: error,
                        to: event["to"]?.stringValue.map { "+" + $0 })
                }
                return HTTPResponse(status: 204)
            }
        }
        if let map = vonage.callStatus {
            router.add("POST", Self.voicePath) { request, _ in
                guard let event = try Self.event(request, vonage) else { return HTTPResponse(status: 204) }
                if let id = event["uuid"]?.stringValue, let value = event["status"]?.stringValue, let status = map(value) {
                    let error = status == .undelivered || status == .failed ? "vonage call \(value)" : nil
                    try receipts.record(
                        gateway: "vonage-voice", providerMessageID: id, status: status, error: error,
                        to: event["to"]?.stringValue.map { "+" + $0 })
                }
                return HTTPResponse(status: 204)
            }
        }
    }

    /// SMS delivery receipts: query parameters, a form or a JSON body.
    private func receiptHandler(_ check: @escaping @Sendable (String) -> Bool) -> RouteHandler {
        let receipts = self.receipts
        return { request, _ in
            guard let token = request.query["token"], check(token) else {
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
            if let id = value("messageId") ?? value("message-id"), let status = value("status").flatMap(VonageGateway.deliveryStatus) {
                let code = value("err-code").flatMap { $0 == "0" ? nil : "vonage error \($0)" }
                try receipts.record(gateway: "vonage", providerMessageID: id, status: status, error: code, to: value("msisdn").map { "+" + $0 })
            }
            return HTTPResponse(status: 204)
        }
    }

    /// The authenticated JSON object of a WhatsApp or voice webhook (nil: not an object, ignored).
    static func event(_ request: HTTPRequest, _ vonage: VonageChannelCallbacks) throws -> JSONValue? {
        try CallbackBody.bounded(request)
        guard vonage.authenticate(request.headers["Authorization"], request.query["token"], request.body) else {
            throw VerifyError(.forbidden, "invalid Vonage webhook signature or token")
        }
        guard let event = try? JSONValue.parse(request.body), event.isObject else { return nil }
        return event
    }

    /// A vendor's error title kept only when short and plain (digits, letters, `-`): never a sentence.
    static func short(_ text: String) -> String {
        text.count <= 16 && text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) ? text : "?"
    }
}

/// How Vonage's webhooks authenticate and map what they are posted.
public struct VonageCallbacks: Sendable {
    /// The `token` query parameter of SMS receipts → authentic? Nil: no receipt route.
    public var receipts: (@Sendable (String) -> Bool)?
    /// The WhatsApp status and call event webhooks; nil: no routes.
    public var channels: VonageChannelCallbacks?

    public init(receipts: (@Sendable (String) -> Bool)? = nil, channels: VonageChannelCallbacks? = nil) {
        self.receipts = receipts
        self.channels = channels
    }

    /// Its routes, feeding `receipts`.
    public func routes(_ receipts: DeliveryReceipts) -> any RouteCollection { VonageCallbackRoutes(receipts: receipts, callbacks: self) }
}

/// Vonage's WhatsApp status (`/v1/webhooks/vonage/whatsapp`) and call event
/// (`/v1/webhooks/vonage/voice`) webhooks.
public struct VonageChannelCallbacks: Sendable {
    /// (Authorization header, `token` query parameter, raw body) → authentic?
    public var authenticate: @Sendable (String?, String?, [UInt8]) -> Bool
    /// Messages API `status` → delivery status; nil: no WhatsApp route.
    public var whatsAppStatus: (@Sendable (String) -> DeliveryStatus?)?
    /// Voice API event `status` → delivery status; nil: no voice route.
    public var callStatus: (@Sendable (String) -> DeliveryStatus?)?

    public init(
        authenticate: @escaping @Sendable (String?, String?, [UInt8]) -> Bool,
        whatsAppStatus: (@Sendable (String) -> DeliveryStatus?)?, callStatus: (@Sendable (String) -> DeliveryStatus?)?
    ) {
        self.authenticate = authenticate
        self.whatsAppStatus = whatsAppStatus
        self.callStatus = callStatus
    }
}
