/// A way to carry a code to a phone (docs/GATEWAYS.md, "Channels").
public enum Channel: String, Sendable, CaseIterable, Codable, Comparable {
    case sms
    case whatsapp
    case call

    public static func < (a: Channel, b: Channel) -> Bool { a.rawValue < b.rawValue }

    /// The channel of a vendor gateway's name, for receipts (which name the gateway only):
    /// `meta-whatsapp`, `twilio-whatsapp`, `vonage-whatsapp`; `twilio-voice`, `vonage-voice`.
    public static func of(gateway: String) -> Channel {
        gateway.hasSuffix("-whatsapp") ? .whatsapp : gateway.hasSuffix("-voice") ? .call : .sms
    }
}

/// The channels of one send, in order: the first is sent at once; each next one is a fallback
/// sent with the same code when the one before is not delivered in time (`auto`).
public struct ChannelPlan: Sendable, Equatable {
    /// What the client asked for: a channel's name or `auto`.
    public let requested: String
    public let channels: [Channel]

    public init(requested: String, channels: [Channel]) {
        self.requested = requested
        self.channels = channels
    }

    public var first: Channel { channels.first ?? .sms }

    /// The plan cut to `sends` messages (a fallback never passes the verification's send cap).
    public func limited(to sends: Int) -> ChannelPlan {
        ChannelPlan(requested: requested, channels: Array(channels.prefix(max(1, sends))))
    }
}

/// Which channels clients may ask for, which line types each reaches, and what `auto` tries
/// (`PHONE_VERIFY_CHANNELS`, `PHONE_VERIFY_AUTO_CHANNELS`, `PHONE_VERIFY_CALL_LINE_TYPES`,
/// `PHONE_VERIFY_AUTO_FALLBACK_AFTER`; docs/GATEWAYS.md).
public struct ChannelPolicy: Sendable, Equatable {
    /// The channels clients may ask for; `auto` is allowed when `autoEnabled`.
    public var enabled: Set<Channel> = [.sms]
    public var autoEnabled = false
    /// What `auto` tries, in order (only enabled channels that reach the number's line type).
    public var autoOrder: [Channel] = [.whatsapp, .sms]
    /// Line types a voice call may reach; SMS and WhatsApp reach the policy's allowed line types.
    public var callLineTypes: Set<LineType> = [.mobile, .fixedLineOrMobile, .fixedLine]
    /// Seconds a message of an `auto` send has to be delivered before the next channel is tried.
    public var fallbackAfter = 60

    public init() {}

    /// Every name a client may send (`channel`), enabled or not.
    public static let names = Channel.allCases.map(\.rawValue) + ["auto"]

    /// The names clients may use here, for error messages.
    public var enabledNames: [String] {
        Channel.allCases.filter { enabled.contains($0) }.map(\.rawValue) + (autoEnabled ? ["auto"] : [])
    }

    /// Line types `channel` reaches, given the text channels' allowed ones.
    public func lineTypes(of channel: Channel, textLineTypes: Set<LineType>) -> Set<LineType> {
        channel == .call ? callLineTypes : textLineTypes
    }

    /// The plan for `requested` to a number of `lineType`, or the client-facing refusal: an
    /// unknown name (400 listing the known ones), a channel not enabled (422), or a line type no
    /// asked channel reaches (422 `unsupported_line_type` naming the enabled ones that would).
    /// `anyLineType`: a test number, whose line type nobody checks.
    public func plan(_ requested: String, lineType: LineType, textLineTypes: Set<LineType>, anyLineType: Bool = false) throws -> ChannelPlan {
        let reaches = { (c: Channel) in anyLineType || lineTypes(of: c, textLineTypes: textLineTypes).contains(lineType) }
        let asked: [Channel]
        if requested == "auto" {
            guard autoEnabled else { throw notEnabled(requested) }
            asked = autoOrder.filter { enabled.contains($0) }
        } else if let channel = Channel(rawValue: requested) {
            guard enabled.contains(channel) else { throw notEnabled(requested) }
            asked = [channel]
        } else {
            throw VerifyError(
                .invalidRequest, "channel must be one of: " + Self.names.joined(separator: ", "),
                details: ["field": "channel", "allowed": .array(enabledNames.map { .string($0) })])
        }
        let usable = asked.filter(reaches)
        guard !usable.isEmpty else {
            let working = Channel.allCases.filter { enabled.contains($0) && reaches($0) }.map(\.rawValue)
            let hint = working.isEmpty ? "" : " (channels that reach it: " + working.joined(separator: ", ") + ")"
            throw VerifyError(
                .unsupportedLineType, "\(lineType.rawValue) numbers cannot receive codes by \(requested)" + hint,
                details: ["line_type": .string(lineType.rawValue), "channels": .array(working.map { .string($0) })])
        }
        return ChannelPlan(requested: requested, channels: usable)
    }

    private func notEnabled(_ name: String) -> VerifyError {
        VerifyError(
            .channelNotEnabled, "channel \(name) is not enabled here (enabled: " + enabledNames.joined(separator: ", ") + ")",
            details: ["channel": .string(name), "allowed": .array(enabledNames.map { .string($0) })])
    }
}
