import SettingsTable
import Vendors
import VerifyCore

/// Every vendor PhoneVerify can send through, one line each. The gateway lists accept their
/// names, the settings table lists their settings, the configuration reads each from its own
/// entries, and the gateway chains and callback routes are built from what was read: a
/// vendor's folder (`Sources/Vendors/<Vendor>`) plus its line here is the whole of adding it
/// (docs/CONTRIBUTING.md, "Add a vendor"). The order is the settings table's.
enum VendorRegistry {
    static let all: [any Vendor.Type] = [
        MetaVendor.self,
        TwilioVendor.self,
        VonageVendor.self,
        WebhookVendor.self,
        TelnyxVendor.self,
    ]

    /// The vendors `channel`'s gateway list may name.
    static func names(for channel: Channel) -> [String] {
        all.filter { $0.channels.contains(channel) }.map { $0.name }
    }

    /// The vendors' settings of `section`, in registry order.
    static func settings(_ section: SettingSection) -> [any SettingEntry] {
        all.flatMap { $0.settings }.filter { $0.section == section }
    }

    /// Every vendor, read from its settings for the gateways `lists` name.
    static func read(_ reader: inout SettingReader, lists: GatewayLists) -> [any Vendor] {
        all.map { $0.read(&reader, lists: lists) }
    }
}
