import SettingsTable
import VerifyCore

/// The gateway lists a vendor reads its settings for: `PHONE_VERIFY_GATEWAYS` (SMS),
/// `PHONE_VERIFY_WHATSAPP_GATEWAYS` and `PHONE_VERIFY_VOICE_GATEWAYS`, in failover order.
public struct GatewayLists: Sendable {
    public var sms: [String]
    public var whatsApp: [String]
    public var voice: [String]

    public init(sms: [String], whatsApp: [String], voice: [String]) {
        self.sms = sms
        self.whatsApp = whatsApp
        self.voice = voice
    }

    /// Whether `channel`'s list names `vendor`.
    public func names(_ vendor: String, for channel: Channel) -> Bool {
        switch channel {
        case .sms: return sms.contains(vendor)
        case .whatsapp: return whatsApp.contains(vendor)
        case .call: return voice.contains(vendor)
        }
    }
}

/// A configuration that holds the vendors it read: what a vendor's production rules look at.
public protocol VendorConfiguration {
    var vendors: [any Vendor] { get }
}

extension VendorConfiguration {
    /// The vendor of type `V`, as read.
    public func vendor<V: Vendor>(_: V.Type) -> V? {
        vendors.lazy.compactMap { $0 as? V }.first
    }
}

extension ProductionRule {
    /// `V`'s effective URL (nil: not used) must be https, or http to this machine only.
    public static func httpsOrLoopback<V: Vendor>(of _: V.Type, _ effective: @escaping @Sendable (V) -> String?) -> Self {
        ProductionRule { configuration, _ in
            httpsOrLoopbackProblem((configuration as? any VendorConfiguration)?.vendor(V.self).flatMap(effective))
        }
    }

    /// Any other demand on `V` as read: the problem's text (after the setting's name), or nil.
    public static func check<V: Vendor>(of _: V.Type, _ problem: @escaping @Sendable (V) -> String?) -> Self {
        ProductionRule { configuration, _ in (configuration as? any VendorConfiguration)?.vendor(V.self).flatMap(problem) }
    }
}
