import VerifyCore

extension ErrorCode {
    /// The one place error codes map to HTTP statuses (docs/ERRORS.md mirrors it).
    public var httpStatus: Int {
        switch self {
        case .invalidRequest, .invalidPhoneNumber: return 400
        case .unauthenticated: return 401
        case .regionNotAllowed, .forbidden, .stepUpRequired, .challengeRequired, .challengeFailed: return 403
        case .notFound: return 404
        case .methodNotAllowed: return 405
        case .alreadyUsed, .factorExists, .factorLimitReached: return 409
        case .expired: return 410
        case .payloadTooLarge: return 413
        case .unsupportedMediaType: return 415
        case .unsupportedLineType, .channelNotEnabled, .incorrectCode, .idempotencyKeyReused: return 422
        case .rateLimited, .suspectedFraud, .resendTooSoon, .maxSendsReached, .maxAttemptsReached: return 429
        case .internalError: return 500
        case .unavailable: return 503
        }
    }
}
