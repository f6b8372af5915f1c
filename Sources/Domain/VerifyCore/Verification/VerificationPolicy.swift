/// Tunable rules of the verification lifecycle (docs/ABUSE.md and docs/API.md: policies and defaults).
public struct VerificationPolicy: Sendable, Equatable {
    public var codeLength: Int = 6
    /// Seconds a code stays valid.
    public var codeTTL: Int = 300
    public var maxAttempts: Int = 5
    public var maxSends: Int = 5
    /// Seconds before the first resend; doubles after each send.
    public var resendCooldown: Int = 30
    public var allowedLineTypes: Set<LineType> = [.mobile, .fixedLineOrMobile]
    /// ISO 3166 regions; when non-empty only these are allowed.
    public var regionAllowList: Set<String> = []
    public var regionDenyList: Set<String> = []
    /// Seconds an `Idempotency-Key` is remembered.
    public var idempotencyWindow: Int = 86_400
    /// Channels clients may ask for and the line types each reaches (`allowedLineTypes` is
    /// what SMS and WhatsApp reach).
    public var channels = ChannelPolicy()

    public init() {}

    /// Seconds to wait after the `sends`-th send before the next one: cooldown × 2^(sends−1).
    public func cooldown(afterSends sends: Int) -> Int {
        let doublings = min(max(sends - 1, 0), 20)
        return resendCooldown * (1 << doublings)
    }

    /// The channels a send asked as `requested` goes by to `number`, or the refusal.
    public func plan(_ requested: String, for number: PhoneNumber, testNumber: Bool = false) throws -> ChannelPlan {
        try channels.plan(requested, lineType: number.lineType, textLineTypes: allowedLineTypes, anyLineType: testNumber)
            .limited(to: maxSends)
    }

    /// Refusal for a number this policy does not serve, or nil. `lineTypes: false` leaves the
    /// line type to the channel plan (`plan`), which knows what each channel reaches.
    public func refusal(for number: PhoneNumber, lineTypes: Bool = true) -> VerifyError? {
        if !regionAllowList.isEmpty && !regionAllowList.contains(number.region)
            || regionDenyList.contains(number.region)
        {
            return VerifyError(
                .regionNotAllowed, "phone numbers of region \(number.region) are not accepted",
                details: ["region": .string(number.region)])
        }
        if lineTypes && !allowedLineTypes.contains(number.lineType) {
            return VerifyError(
                .unsupportedLineType, "\(number.lineType.rawValue) numbers cannot receive verification codes",
                details: ["line_type": .string(number.lineType.rawValue)])
        }
        return nil
    }
}
