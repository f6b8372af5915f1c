import API
import HTTPMessages
import VerifyCore

/// An error as Twilio answers it: `{"code", "message", "more_info", "status"}`.
struct TwilioCompatError: Error, Sendable {
    let status: Int
    let code: Int
    let message: String
    var retryAfter: Int?
    var headers: HTTPHeaders = HTTPHeaders()

    init(_ status: Int, _ code: Int, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    var response: HTTPResponse {
        var headers = self.headers
        if let retryAfter { headers.set("Retry-After", String(max(1, retryAfter))) }
        let body: JSONValue = [
            "code": .int(Int64(code)), "message": .string(message),
            "more_info": .string("https://www.twilio.com/docs/errors/\(code)"), "status": .int(Int64(status)),
        ]
        return JSONResponse.make(status, body, headers: headers)
    }

    /// 401 20003, with a Basic challenge.
    static var unauthenticated: TwilioCompatError {
        var error = TwilioCompatError(401, 20003, "Authenticate")
        error.headers.set("WWW-Authenticate", "Basic realm=\"Twilio API\"")
        return error
    }

    /// 404 20404 naming the resource as Twilio does (the path without its version).
    static func notFound(_ path: String) -> TwilioCompatError {
        let resource = path.hasPrefix("/v2/") ? String(path.dropFirst(3)) : path
        return TwilioCompatError(404, 20404, "The requested resource \(resource.prefix(200)) was not found")
    }

    static func invalid(_ parameter: String, _ reason: String) -> TwilioCompatError {
        TwilioCompatError(400, 60200, "Invalid parameter `\(parameter)`: \(reason)")
    }

    static func missing(_ parameter: String) -> TwilioCompatError {
        TwilioCompatError(400, 60200, "Invalid parameter `\(parameter)`: missing required parameter \(parameter)")
    }

    /// 403 60205 (Twilio's "SMS is not supported by landline phone number"), saying which channel
    /// cannot reach which line type, and which enabled channels would.
    static func unsupportedLineType(_ error: VerifyError, channel: String) -> TwilioCompatError {
        let name = ["sms": "SMS", "whatsapp": "WhatsApp", "call": "Call"][channel] ?? channel
        let lineType = error.details["line_type"]?.stringValue
        let kind = lineType == LineType.fixedLine.rawValue ? "landline" : (lineType ?? "this").replacingOccurrences(of: "_", with: " ")
        let reaching = error.details["channels"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let hint = reaching.isEmpty ? "" : " (channels that reach it: " + reaching.joined(separator: ", ") + ")"
        return TwilioCompatError(403, 60205, "\(name) is not supported by \(kind) phone number" + hint)
    }

    /// Where a refusal happened: a rate limit means something else for a send than for a check.
    enum Operation { case send, check, other }

    /// The Twilio answer to a PhoneVerify refusal (docs/TWILIO_COMPAT.md has the table).
    static func from(_ error: VerifyError, path: String, operation: Operation) -> TwilioCompatError {
        var mapped: TwilioCompatError
        switch error.code {
        case .invalidRequest, .idempotencyKeyReused:
            mapped = TwilioCompatError(400, 60200, error.message.hasPrefix("Invalid parameter") ? error.message : "Invalid parameter: \(error.message)")
        case .invalidPhoneNumber:
            mapped = TwilioCompatError(400, 60200, "Invalid parameter `To`: \(error.message)")
        case .unsupportedLineType:
            mapped = unsupportedLineType(error, channel: Channel.sms.rawValue)
        case .channelNotEnabled:
            mapped = TwilioCompatError(400, 60223, "Delivery channel disabled: \(error.details["channel"]?.stringValue?.uppercased() ?? "")")
        case .regionNotAllowed:
            mapped = TwilioCompatError(403, 60605, "Verification delivery attempt blocked: \(error.message)")
        case .suspectedFraud:
            mapped = TwilioCompatError(403, 60410, "Verification delivery attempt blocked: \(error.message)")
        case .rateLimited:
            let scope = error.details["scope"]?.stringValue
            if scope == "phone" || (scope == "phone_lockout" && operation != .check) {
                mapped = TwilioCompatError(429, 60203, "Max send attempts reached")
            } else if scope == "phone_lockout" {
                mapped = TwilioCompatError(429, 60202, "Max check attempts reached")
            } else {
                mapped = TwilioCompatError(429, 20429, "Too many requests")
            }
        case .maxSendsReached, .resendTooSoon:
            mapped = TwilioCompatError(429, 60203, "Max send attempts reached")
        case .maxAttemptsReached:
            mapped = TwilioCompatError(429, 60202, "Max check attempts reached")
        case .expired, .alreadyUsed, .notFound:
            mapped = notFound(path)
        case .unauthenticated:
            mapped = unauthenticated
        case .forbidden, .stepUpRequired, .challengeRequired, .challengeFailed:
            mapped = TwilioCompatError(403, 20403, "Forbidden: \(error.message)")
        case .methodNotAllowed:
            mapped = TwilioCompatError(405, 20004, "Method not allowed")
        case .payloadTooLarge:
            mapped = TwilioCompatError(413, 60200, "Invalid parameter: the request body is too large")
        case .unsupportedMediaType:
            mapped = TwilioCompatError(415, 60200, "Invalid parameter: \(error.message)")
        case .incorrectCode, .factorExists, .factorLimitReached:
            mapped = TwilioCompatError(400, 60200, error.message)
        case .unavailable:
            mapped = TwilioCompatError(503, 20503, "Service unavailable: \(error.message)")
        case .internalError:
            mapped = TwilioCompatError(500, 20500, "Internal server error")
        }
        if mapped.status == 429 { mapped.retryAfter = error.retryAfter }
        return mapped
    }
}
