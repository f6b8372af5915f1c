import Foundation

/// Every failure of a `PhoneVerifyClient` call: the server's error envelope
/// (`{"error": {"code", "message", "details"}}`, docs/ERRORS.md) decoded into a case, or a
/// transport failure. Each case has a message an app can show (`errorDescription`).
public enum PhoneVerifyError: Error, LocalizedError, Sendable, Hashable {
    /// A malformed request: a field the server refused (`details.field`).
    case invalidRequest(field: String?, message: String)
    /// The number cannot be parsed or is not valid (`too_short`, `too_long`,
    /// `invalid_country_code`, `not_a_number`, `invalid_for_region`).
    case invalidPhoneNumber(reason: String?)
    /// The number's line type (landline, VoIP, …) is not accepted.
    case unsupportedLineType(lineType: String?)
    /// The number's region is not served.
    case regionNotAllowed(region: String?)
    /// The channel asked for (`whatsapp`, `call`, `auto`) is not enabled on this server
    /// (`allowed`: the ones that are); ask again with one of them, e.g. `sms`.
    case channelNotEnabled(channel: String?, allowed: [String])
    /// A rate limit refused the request; try again after `retryAfter` seconds.
    case rateLimited(scope: String?, retryAfter: TimeInterval?)
    /// The destination is paused by the fraud guard.
    case suspectedFraud(retryAfter: TimeInterval?)
    /// The server asks for a solved challenge before it sends a code (the offered providers).
    case challengeRequired(providers: [ChallengeProviderInfo])
    /// The challenge token was refused (bad, expired, already used): get a new one.
    case challengeFailed(provider: String?)
    /// The session token is missing, expired or not trusted (MFA calls).
    case unauthenticated(message: String)
    /// A recent step-up is needed first (RFC 9470): run an MFA challenge, then retry with the
    /// step-up credential.
    case stepUpRequired(maxAge: Int?, acrValues: String?)
    /// The user already has this phone as a factor.
    case factorExists
    /// The user already has the maximum number of factors.
    case factorLimitReached(maxFactors: Int?)
    /// The server refuses this request (a test number past its expiry, a missing scope).
    case forbidden(message: String)
    /// The code is wrong; `attemptsRemaining` checks are left.
    case incorrectCode(attemptsRemaining: Int?)
    /// Every check of this verification is used up: start a new one.
    case maxAttemptsReached
    /// `resend` before the cooldown ended.
    case resendTooSoon(availableAt: Date?, retryAfter: TimeInterval?)
    /// The verification already sent every code it may: start a new one.
    case maxSendsReached(maxSends: Int?)
    /// The code's lifetime is over: start a new verification.
    case expired
    /// The verification was already approved or canceled.
    case alreadyUsed
    /// No such verification, factor or challenge (or not the caller's).
    case notFound
    /// The same Idempotency-Key was used for a different request.
    case idempotencyKeyReused
    /// The service (or a vendor it needs) is unavailable for now; nothing was sent or counted.
    case unavailable(retryAfter: TimeInterval?)
    /// Another error the server reported (`internal_error`, `payload_too_large`, a code this
    /// version of the client does not know, …).
    case server(status: Int, code: String, message: String)
    /// The server could not be reached or the connection failed (`URLError` code).
    case network(code: Int, message: String)
    /// The server's answer could not be understood.
    case invalidResponse(status: Int, reason: String)

    /// The server's error code (`incorrect_code`, …), or `network` / `invalid_response`.
    public var code: String {
        switch self {
        case .invalidRequest: return "invalid_request"
        case .invalidPhoneNumber: return "invalid_phone_number"
        case .unsupportedLineType: return "unsupported_line_type"
        case .regionNotAllowed: return "region_not_allowed"
        case .channelNotEnabled: return "channel_not_enabled"
        case .rateLimited: return "rate_limited"
        case .suspectedFraud: return "suspected_fraud"
        case .challengeRequired: return "challenge_required"
        case .challengeFailed: return "challenge_failed"
        case .unauthenticated: return "unauthenticated"
        case .stepUpRequired: return "step_up_required"
        case .factorExists: return "factor_exists"
        case .factorLimitReached: return "factor_limit_reached"
        case .forbidden: return "forbidden"
        case .incorrectCode: return "incorrect_code"
        case .maxAttemptsReached: return "max_attempts_reached"
        case .resendTooSoon: return "resend_too_soon"
        case .maxSendsReached: return "max_sends_reached"
        case .expired: return "expired"
        case .alreadyUsed: return "already_used"
        case .notFound: return "not_found"
        case .idempotencyKeyReused: return "idempotency_key_reused"
        case .unavailable: return "unavailable"
        case .server(_, let code, _): return code
        case .network: return "network"
        case .invalidResponse: return "invalid_response"
        }
    }

    /// Seconds to wait before trying again, when the server said (`Retry-After`).
    public var retryAfter: TimeInterval? {
        switch self {
        case .rateLimited(_, let seconds), .suspectedFraud(let seconds), .resendTooSoon(_, let seconds), .unavailable(let seconds):
            return seconds
        default: return nil
        }
    }

    public var errorDescription: String? {
        switch self {
        case .invalidRequest(let field, let message):
            return field.map { "The request was not accepted (\($0)): \(message)" } ?? "The request was not accepted: \(message)"
        case .invalidPhoneNumber(let reason):
            switch reason {
            case "too_short": return "This phone number is too short."
            case "too_long": return "This phone number is too long."
            case "invalid_country_code": return "This phone number's country code is not valid."
            case "not_a_number": return "This is not a phone number."
            case "invalid_for_region": return "This phone number is not valid for its region."
            default: return "This phone number is not valid."
            }
        case .unsupportedLineType: return "Codes can only be sent to mobile numbers."
        case .regionNotAllowed: return "Phone numbers from this region are not supported."
        case .channelNotEnabled: return "Codes cannot be sent this way. Please choose another way to get your code."
        case .rateLimited(_, let retryAfter): return "Too many attempts. " + Self.tryAgain(retryAfter)
        case .suspectedFraud(let retryAfter): return "Codes cannot be sent to this number right now. " + Self.tryAgain(retryAfter)
        case .challengeRequired: return "Please confirm you are not a robot before a code is sent."
        case .challengeFailed: return "The verification challenge failed. Please try again."
        case .unauthenticated: return "Your session has expired. Please sign in again."
        case .stepUpRequired: return "Please confirm it is you with a code sent to your phone."
        case .factorExists: return "This phone is already set up for two-step verification."
        case .factorLimitReached: return "You cannot add more phones for two-step verification."
        case .forbidden(let message): return "This request is not allowed: \(message)"
        case .incorrectCode(let left):
            guard let left else { return "The code is incorrect." }
            return left == 0 ? "The code is incorrect and no attempts are left. Request a new code." :
                "The code is incorrect. \(left) attempt\(left == 1 ? "" : "s") left."
        case .maxAttemptsReached: return "Too many incorrect codes. Request a new code."
        case .resendTooSoon(_, let retryAfter): return "Please wait before requesting another code. " + Self.tryAgain(retryAfter)
        case .maxSendsReached: return "No more codes can be sent for this request. Start again."
        case .expired: return "The code has expired. Request a new code."
        case .alreadyUsed: return "This code was already used."
        case .notFound: return "This verification was not found. Start again."
        case .idempotencyKeyReused: return "This request conflicts with an earlier one. Start again."
        case .unavailable(let retryAfter): return "The service is unavailable. " + Self.tryAgain(retryAfter)
        case .server(let status, let code, let message): return "The server refused the request (\(status) \(code)): \(message)"
        case .network(_, let message): return "The server could not be reached: \(message)"
        case .invalidResponse(let status, let reason): return "The server's answer (\(status)) was not understood: \(reason)"
        }
    }

    private static func tryAgain(_ seconds: TimeInterval?) -> String {
        guard let seconds, seconds > 0 else { return "Please try again later." }
        let whole = Int(seconds.rounded(.up))
        return whole < 120 ? "Try again in \(whole) seconds." : "Try again in \(whole / 60) minutes."
    }
}

extension PhoneVerifyError {
    /// The error an HTTP answer carries: the envelope `{"error": {"code", "message", "details"}}`
    /// (docs/ERRORS.md), with `Retry-After` from the headers.
    static func decode(status: Int, body: Data, retryAfter: TimeInterval?) -> PhoneVerifyError {
        guard let root = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let error = root["error"] as? [String: Any], let code = error["code"] as? String
        else {
            if status == 503 { return .unavailable(retryAfter: retryAfter) }
            return .invalidResponse(status: status, reason: "no error envelope in the answer")
        }
        let message = error["message"] as? String ?? ""
        let details = error["details"] as? [String: Any] ?? [:]
        func string(_ key: String) -> String? { details[key] as? String }
        func int(_ key: String) -> Int? { (details[key] as? NSNumber)?.intValue }
        switch code {
        case "invalid_request": return .invalidRequest(field: string("field"), message: message)
        case "invalid_phone_number": return .invalidPhoneNumber(reason: string("reason"))
        case "unsupported_line_type": return .unsupportedLineType(lineType: string("line_type"))
        case "region_not_allowed": return .regionNotAllowed(region: string("region"))
        case "channel_not_enabled": return .channelNotEnabled(channel: string("channel"), allowed: details["allowed"] as? [String] ?? [])
        case "rate_limited": return .rateLimited(scope: string("scope"), retryAfter: retryAfter)
        case "suspected_fraud": return .suspectedFraud(retryAfter: retryAfter)
        case "challenge_required":
            let providers = (details["providers"] as? [[String: Any]] ?? []).compactMap { entry -> ChallengeProviderInfo? in
                guard let name = entry["name"] as? String else { return nil }
                var parameters: [String: String] = [:]
                for (key, value) in entry where key != "name" {
                    if let text = value as? String { parameters[key] = text } else if let number = value as? NSNumber { parameters[key] = number.stringValue }
                }
                return ChallengeProviderInfo(name: name, parameters: parameters)
            }
            return .challengeRequired(providers: providers)
        case "challenge_failed": return .challengeFailed(provider: string("provider"))
        case "unauthenticated": return .unauthenticated(message: message)
        case "step_up_required": return .stepUpRequired(maxAge: int("max_age"), acrValues: string("acr_values"))
        case "factor_exists": return .factorExists
        case "factor_limit_reached": return .factorLimitReached(maxFactors: int("max_factors"))
        case "forbidden": return .forbidden(message: message)
        case "incorrect_code": return .incorrectCode(attemptsRemaining: int("attempts_remaining"))
        case "max_attempts_reached": return .maxAttemptsReached
        case "resend_too_soon":
            let at = string("resend_available_at").flatMap { ISO8601DateFormatter().date(from: $0) }
            return .resendTooSoon(availableAt: at, retryAfter: retryAfter)
        case "max_sends_reached": return .maxSendsReached(maxSends: int("max_sends"))
        case "expired": return .expired
        case "already_used": return .alreadyUsed
        case "not_found": return .notFound
        case "idempotency_key_reused": return .idempotencyKeyReused
        case "unavailable": return .unavailable(retryAfter: retryAfter)
        default: return .server(status: status, code: code, message: message)
        }
    }

    /// The envelope's `details` members this client reads, per code (checked against
    /// docs/openapi.json by the tests).
    static let decodedDetails: [String: [String]] = [
        "invalid_request": ["field"], "invalid_phone_number": ["reason"], "unsupported_line_type": ["line_type"],
        "region_not_allowed": ["region"], "channel_not_enabled": ["channel", "allowed"], "rate_limited": ["scope"], "challenge_required": ["providers"],
        "challenge_failed": ["provider"], "step_up_required": ["max_age", "acr_values"], "factor_limit_reached": ["max_factors"],
        "incorrect_code": ["attempts_remaining"], "resend_too_soon": ["resend_available_at"], "max_sends_reached": ["max_sends"],
    ]
}
