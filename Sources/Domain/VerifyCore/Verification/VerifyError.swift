/// The stable, machine-readable error codes of the API: a contract (docs/ERRORS.md).
public enum ErrorCode: String, Sendable, CaseIterable {
    case invalidRequest = "invalid_request"
    case invalidPhoneNumber = "invalid_phone_number"
    case unsupportedLineType = "unsupported_line_type"
    case channelNotEnabled = "channel_not_enabled"
    case regionNotAllowed = "region_not_allowed"
    case rateLimited = "rate_limited"
    case suspectedFraud = "suspected_fraud"
    case challengeRequired = "challenge_required"
    case challengeFailed = "challenge_failed"
    case resendTooSoon = "resend_too_soon"
    case maxSendsReached = "max_sends_reached"
    case incorrectCode = "incorrect_code"
    case maxAttemptsReached = "max_attempts_reached"
    case expired
    case alreadyUsed = "already_used"
    case notFound = "not_found"
    case idempotencyKeyReused = "idempotency_key_reused"
    case methodNotAllowed = "method_not_allowed"
    case payloadTooLarge = "payload_too_large"
    case unsupportedMediaType = "unsupported_media_type"
    case unauthenticated
    case forbidden
    case stepUpRequired = "step_up_required"
    case factorExists = "factor_exists"
    case factorLimitReached = "factor_limit_reached"
    case unavailable
    case internalError = "internal_error"
}

/// A domain refusal: a stable code, a human message and optional structured details.
public struct VerifyError: Error, Sendable, Equatable {
    public let code: ErrorCode
    public let message: String
    public let details: [String: JSONValue]
    /// Seconds the client should wait before trying again (429s).
    public let retryAfter: Int?
    /// The limit that refused the request, for `RateLimit-Policy` / `RateLimit`.
    public let rateLimit: RateLimitReport?
    /// Why, for the service's own metrics and tests, never shown to the client (e.g. why a
    /// challenge was asked: telling a stranger would reveal a number's activity).
    public var reasons: [String] = []
    /// A fraud refusal of an SMS destination that a start may escape by going over WhatsApp
    /// instead (docs/ABUSE.md, "Steering"); never shown to the client.
    public var steerable = false

    public init(
        _ code: ErrorCode, _ message: String, details: [String: JSONValue] = [:], retryAfter: Int? = nil,
        rateLimit: RateLimitReport? = nil
    ) {
        self.code = code
        self.message = message
        self.details = details
        self.retryAfter = retryAfter
        self.rateLimit = rateLimit
    }
}
