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
    /// `ids`: the fallbacks' message ids, drawn before a transaction (new ones when missing).
    func fallbackMessages(after first: OutboxMessage, plan: ChannelPlan, now: Date, ids: [String] = []) -> [OutboxMessage] {
        var previous = first
        return plan.channels.dropFirst().enumerated().map { offset, channel in
            var m = first
            m.id = offset < ids.count ? ids[offset] : random.timeOrderedIdentifier(prefix: "msg_", at: now)
            m.channel = channel
            m.fallbackOf = previous.id
            m.nextAttemptAt = now.addingTimeInterval(TimeInterval((offset + 1) * policy.channels.fallbackAfter))
            previous = m
            return m
        }
    }

    /// The rows of a start for `plan`: the verification (its channel and reserved sends), its first
    /// message on the plan's first channel, and the fallbacks (none for a test number).
    func planned(
        _ plan: ChannelPlan, verification base: Verification, message: OutboxMessage?, fallbackIDs: [String], now: Date
    ) -> PlannedSend {
        var v = base
        v.channel = plan.first.rawValue
        guard var first = message else { return PlannedSend(verification: v, message: nil, fallbacks: []) }
        v.sends = plan.channels.count
        first.channel = plan.first
        return PlannedSend(verification: v, message: first, fallbacks: fallbackMessages(after: first, plan: plan, now: now, ids: fallbackIDs))
    }

    /// Screens a send of `plan` (``screen``); an `auto` plan refused by one channel's own quota
    /// or fraud key goes by the channels left, and a plan whose SMS destination the fraud guard
    /// refuses goes over WhatsApp only (`steer`, see ``canSteer``), each screened again in the same
    /// transaction. An `auto` plan to a destination any of whose keys is watched or paused keeps
    /// no SMS or call fallback: a pumped number has no WhatsApp, so its first message fails and the
    /// fallback would be what the attacker is paid for, uncounted on its own keys.
    func screenCutting(
        _ plan: ChannelPlan, _ screeningFor: ([Channel]) -> SendScreening, steer: Bool = false, now: Date, in tx: any StoreTransaction
    ) throws -> (plan: ChannelPlan, screening: SendScreening, screened: ScreenedSend) {
        var plan = plan
        var steering = steer && plan.channels.contains(.sms)
        var steered = false
        while true {
            let screening = screeningFor(plan.channels)
            do {
                let screened = try screen(screening, steering: steering, steered: steered, now: now, in: tx)
                let fallbacks = plan.channels.dropFirst()
                if plan.requested == "auto", fallbacks.contains(where: { $0 != .whatsapp }), screened.verdicts.contains(where: \.isRisky) {
                    plan = ChannelPlan(requested: plan.requested, channels: [plan.first] + fallbacks.filter { $0 == .whatsapp })
                    steering = steering && plan.channels.contains(.sms)
                    continue
                }
                return (plan, screening, screened)
            } catch let error as VerifyError {
                if steering, error.steerable {
                    // WhatsApp only, no SMS fallback: the attacker earns nothing, the owner gets a code.
                    plan = ChannelPlan(requested: plan.requested, channels: [.whatsapp])
                    steering = false
                    steered = true
                    continue
                }
                guard let cut = Self.cut(plan, by: error) else { throw error }
                plan = cut
                steering = steering && plan.channels.contains(.sms)
            }
        }
    }

    /// Whether a start or resend of `plan` for `purpose` may go over WhatsApp instead when the
    /// fraud guard refuses its SMS destination (docs/ABUSE.md, "Steering"): WhatsApp is enabled,
    /// and the client asked for `auto`, or for SMS with `PHONE_VERIFY_FRAUD_STEER=whatsapp`. The
    /// delegated verification sends what its caller asked for.
    func canSteer(_ plan: ChannelPlan, purpose: Purpose) -> Bool {
        guard policy.channels.enabled.contains(.whatsapp), !purpose.isDelegated, plan.channels.contains(.sms) else { return false }
        return plan.requested == "auto" || (plan.requested == Channel.sms.rawValue && protection.fraud.policy.steerToWhatsApp)
    }

    /// An `auto` plan without the channel whose own quota (`whatsapp_send`, `call_send`) refused
    /// it, so the other channels still go (docs/CHANNELS.md); nil when the refusal stands.
    static func cut(_ plan: ChannelPlan, by error: VerifyError) -> ChannelPlan? {
        guard plan.requested == "auto", error.code == .rateLimited || error.code == .suspectedFraud, plan.channels.count > 1,
            let name = error.details["channel"]?.stringValue, let channel = Channel(rawValue: name), plan.channels.contains(channel)
        else { return nil }
        return ChannelPlan(requested: plan.requested, channels: plan.channels.filter { $0 != channel })
    }
}

/// One start's rows for a channel plan (`VerificationService.planned`).
struct PlannedSend: Sendable {
    var verification: Verification
    var message: OutboxMessage?
    var fallbacks: [OutboxMessage]
}
