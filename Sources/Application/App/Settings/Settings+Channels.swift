import SettingsTable
import VerifyCore

/// The channels section of the settings table: which channels clients may ask for, what `auto`
/// tries, and the WhatsApp and voice gateway chains (read by `Configuration.readChannels`;
/// the vendors' entries come from their folders, `VendorRegistry.settings(.channels)`).
extension Settings {
    public static let channels = Setting<[String]>(
        "PHONE_VERIFY_CHANNELS", .channels, .channelNames(allowAuto: true), defaultsTo: ["sms"],
        "channels clients may ask for: sms, whatsapp, call, auto")

    public static let autoChannels = Setting<[String]>(
        "PHONE_VERIFY_AUTO_CHANNELS", .channels, .channelNames(allowAuto: false), defaultsTo: ["whatsapp", "sms"],
        "what channel auto tries, in order; the next is sent when one is not delivered in time")

    public static let autoFallbackAfter = Setting<Int>(
        "PHONE_VERIFY_AUTO_FALLBACK_AFTER", .channels, .int(5...3600), defaultsTo: 60,
        "seconds a message of an auto send has to be delivered before the next channel is tried")

    public static let callLineTypes = Setting<Set<LineType>>(
        "PHONE_VERIFY_CALL_LINE_TYPES", .channels, .lineTypes, defaultsTo: [.mobile, .fixedLineOrMobile, .fixedLine], shown: "mobile,fixed_line_or_mobile,fixed_line",
        "line types a voice call may reach (sms and whatsapp: PHONE_VERIFY_ALLOWED_LINE_TYPES)")

    public static let whatsAppGateways = Setting<[String]>(
        "PHONE_VERIFY_WHATSAPP_GATEWAYS", .channels, .gatewayNames(["console"] + VendorRegistry.names(for: .whatsapp)),
        default: "(none; console in development)",
        "ordered failover list of WhatsApp gateways: " + (VendorRegistry.names(for: .whatsapp) + ["console"]).joined(separator: ", "),
        production: .check { $0.channelGateways.whatsApp.contains("console") ? "the console sink is refused in production mode" : nil })

    public static let voiceGateways = Setting<[String]>(
        "PHONE_VERIFY_VOICE_GATEWAYS", .channels, .gatewayNames(["console"] + VendorRegistry.names(for: .call)),
        default: "(none; console in development)",
        "ordered failover list of voice-call gateways: " + (VendorRegistry.names(for: .call) + ["console"]).joined(separator: ", "),
        production: .check { $0.channelGateways.voice.contains("console") ? "the console sink is refused in production mode" : nil })

    public static let voiceRingTimeout = Setting<Int>(
        "PHONE_VERIFY_VOICE_RING_TIMEOUT", .channels, .int(5...120), default: "(vendor's, 60)",
        "seconds a verification call rings before the vendor gives up")

    /// The channel settings, then the vendors' (their folders' `settings`, in registry order).
    static let channelsSection: [any SettingEntry] =
        [channels, autoChannels, autoFallbackAfter, callLineTypes, whatsAppGateways, voiceGateways, voiceRingTimeout]
        + VendorRegistry.settings(.channels)
}

extension SettingType where Value == [String] {
    /// Channel names (sms, whatsapp, call and, when allowed, auto), each once, at least one.
    static func channelNames(allowAuto: Bool) -> Self {
        let known = Channel.allCases.map(\.rawValue) + (allowAuto ? ["auto"] : [])
        return Self("channel names") { text in
            let names = items(text).map { $0.lowercased() }
            var problems = names.filter { !known.contains($0) }.map {
                "unknown channel \"\($0)\" (known: \(known.joined(separator: ", ")))"
            }
            if Set(names).count != names.count || names.isEmpty {
                problems.append("must list each channel at most once, and at least one")
            }
            return (names, problems)
        }
    }

    /// Gateway names out of `known`, each once, at least one.
    static func gatewayNames(_ known: [String]) -> Self {
        Self("ordered gateway names") { text in
            let names = items(text).map { $0.lowercased() }
            var problems = names.filter { !known.contains($0) }.map {
                "unknown gateway \"\($0)\" (known: \(known.joined(separator: ", ")))"
            }
            if Set(names).count != names.count || names.isEmpty {
                problems.append("must list each gateway at most once, and at least one")
            }
            return (names, problems)
        }
    }
}
