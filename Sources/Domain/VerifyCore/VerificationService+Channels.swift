import Foundation

/// Channels of a send: a resend's switch of channel and the fallbacks of an `auto` send
/// (docs/GATEWAYS.md, "Channels").
extension VerificationService {
    /// The plan of a resend that names a channel, for the verification's number (parsed again:
    /// the line type is not stored). An unknown verification is left to the resend's own read.
    func resendPlan(_ channel: String, id: String, purposes: Set<Purpose>, now: Date) throws -> ChannelPlan? {
        guard let v = try store.read({ try $0.verification(id: id) }), purposes.contains(v.purpose) else { return nil }
        let test = try protection.testNumbers.code(for: v.phoneNumber, now: now) != nil
        let number: PhoneNumber
        if test {
            number = try testNumber(v.phoneNumber, now: now)
        } else {
            guard case .success(let parsed) = parser.parse(v.phoneNumber, defaultRegion: nil) else {
                throw VerifyError(.invalidPhoneNumber, "the verification's number no longer parses", details: ["reason": "invalid"])
            }
            number = parsed
        }
        return try policy.plan(channel, for: number, testNumber: test)
    }

    /// The fallbacks of `plan` after its first message: the same sealed code, each due one
    /// fallback time after the one before (sooner when that one fails: the store moves it).
    func fallbackMessages(after first: OutboxMessage, plan: ChannelPlan, now: Date) -> [OutboxMessage] {
        var previous = first
        return plan.channels.dropFirst().enumerated().map { offset, channel in
            var m = first
            m.id = random.timeOrderedIdentifier(prefix: "msg_", at: now)
            m.channel = channel
            m.fallbackOf = previous.id
            m.nextAttemptAt = now.addingTimeInterval(TimeInterval((offset + 1) * policy.channels.fallbackAfter))
            previous = m
            return m
        }
    }
}
