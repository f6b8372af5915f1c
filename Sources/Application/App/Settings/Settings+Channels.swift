import SettingsTable
import VerifyCore

/// The channels section of the settings table: which channels clients may ask for, what `auto`
/// tries, and the WhatsApp and voice gateway chains (read by `Configuration.readChannels`;
/// vendors' settings: `Settings+ChannelVendors.swift`).
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
        "PHONE_VERIFY_WHATSAPP_GATEWAYS", .channels, .gatewayNames(["console", "meta", "twilio", "vonage", "webhook"]),
        default: "(none; console in development)",
        "ordered failover list of WhatsApp gateways: meta, twilio, vonage, webhook, console",
        production: .check { $0.channelGateways.whatsApp.contains("console") ? "the console sink is refused in production mode" : nil })

    public static let voiceGateways = Setting<[String]>(
        "PHONE_VERIFY_VOICE_GATEWAYS", .channels, .gatewayNames(["console", "twilio", "vonage", "webhook"]),
        default: "(none; console in development)",
        "ordered failover list of voice-call gateways: twilio, vonage, webhook, console",
        production: .check { $0.channelGateways.voice.contains("console") ? "the console sink is refused in production mode" : nil })

    public static let voiceRingTimeout = Setting<Int>(
        "PHONE_VERIFY_VOICE_RING_TIMEOUT", .channels, .int(5...120), default: "(vendor's, 60)",
        "seconds a verification call rings before the vendor gives up")

    public static let metaBaseURL = Setting<String>(
        "PHONE_VERIFY_META_WA_BASE_URL", .channels, .url, defaultsTo: "https://graph.facebook.com",
        "Meta Graph API base URL (point it at a local fake)",
        production: .httpsOrLoopback { $0.channelGateways.meta?.baseURL })

    public static let metaAPIVersion = Setting<String>(
        "PHONE_VERIFY_META_WA_API_VERSION", .channels, .text, defaultsTo: "v21.0",
        "Graph API version of the WhatsApp Cloud API")

    public static let metaPhoneNumberID = Setting<String>(
        "PHONE_VERIFY_META_WA_PHONE_NUMBER_ID", .channels, .text, default: "(none)",
        "the WhatsApp sender's phone number ID (WhatsApp Manager → API setup), not the number")

    public static let metaAccessToken = Setting<String>(
        "PHONE_VERIFY_META_WA_ACCESS_TOKEN", .channels, .text, default: "(none)",
        "system-user access token with whatsapp_business_messaging",
        secret: true)

    public static let metaTemplate = Setting<String>(
        "PHONE_VERIFY_META_WA_TEMPLATE", .channels, .text, default: "(none)",
        "name of the approved authentication template (copy-code button)")

    public static let metaLanguages = Setting<[String]>(
        "PHONE_VERIFY_META_WA_LANGUAGES", .channels, .list, default: "(none)",
        "languages the template is approved in, in preference order (en_US,de,pt_BR)")

    public static let metaFallbackLanguage = Setting<String>(
        "PHONE_VERIFY_META_WA_FALLBACK_LANGUAGE", .channels, .text, defaultsTo: "en_US",
        "template language when no approved language matches the locale")

    public static let metaAppSecret = Setting<String>(
        "PHONE_VERIFY_META_WA_APP_SECRET", .channels, .text, default: "(none)",
        "app secret: checks X-Hub-Signature-256 of status webhooks (no status route without it)",
        secret: true)

    public static let metaVerifyToken = Setting<String>(
        "PHONE_VERIFY_META_WA_VERIFY_TOKEN", .channels, .text, default: "(none)",
        "random string Meta presents in the webhook subscription handshake (no handshake without it)",
        secret: true)

    static let channelsSection: [any SettingEntry] =
        [channels, autoChannels, autoFallbackAfter, callLineTypes, whatsAppGateways, voiceGateways, voiceRingTimeout,
         metaBaseURL, metaAPIVersion, metaPhoneNumberID, metaAccessToken, metaTemplate, metaLanguages, metaFallbackLanguage,
         metaAppSecret, metaVerifyToken] + channelVendorsSection
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

extension SettingType where Value == [String: String] {
    /// `key=value,key=value` (keys as given, values trimmed); every malformed item is reported.
    static var pairs: Self {
        Self("key=value list") { text in
            var map: [String: String] = [:]
            var problems: [String] = []
            for item in SettingType<[String]>.items(text) {
                let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    problems.append("must be key=value pairs separated by commas (\"\(item)\" is not)")
                    continue
                }
                map[parts[0]] = parts[1]
            }
            return (map, problems)
        }
    }
}
