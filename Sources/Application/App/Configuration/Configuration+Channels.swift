import Foundation
import Gateways
import LibCrypto
import SettingsTable
import Vendors
import VerifyCore

extension Configuration {
    /// Channels clients may ask for, `auto`, the WhatsApp and voice chains (`Settings+Channels.swift`),
    /// then every vendor's settings for the three lists (`VendorRegistry`). Runs after
    /// `readGateways`, which reads the SMS list.
    mutating func readChannels(_ reader: inout SettingReader) {
        let policy = readChannelPolicy(&reader)
        self.policy.channels = policy
        let needed = policy.enabled.union(policy.autoEnabled ? Set(policy.autoOrder) : [])

        var g = ChannelGatewaySettings()
        g.whatsApp = chain(Settings.whatsAppGateways, .whatsapp, needed: needed, &reader)
        g.voice = chain(Settings.voiceGateways, .call, needed: needed, &reader)
        g.ringTimeout = reader(Settings.voiceRingTimeout)
        channelGateways = g
        // Each vendor reads its own settings (its folder's `read`), for the lists that name it.
        vendors = VendorRegistry.read(&reader, lists: GatewayLists(sms: gateways, whatsApp: g.whatsApp, voice: g.voice))
    }

    /// The channels clients may ask for and `auto`'s order (`PHONE_VERIFY_CHANNELS`,
    /// `PHONE_VERIFY_AUTO_CHANNELS`); `auto` may only list enabled channels.
    private func readChannelPolicy(_ reader: inout SettingReader) -> ChannelPolicy {
        var policy = ChannelPolicy()
        let names = reader.value(Settings.channels)
        policy.enabled = Set(names.compactMap(Channel.init(rawValue:)))
        policy.autoEnabled = names.contains("auto")
        let autoGiven = reader(Settings.autoChannels)
        policy.autoOrder = (autoGiven ?? Settings.autoChannels.standard).compactMap(Channel.init(rawValue:))
        policy.fallbackAfter = reader.value(Settings.autoFallbackAfter)
        policy.callLineTypes = reader.value(Settings.callLineTypes)
        if policy.autoEnabled {
            let off = policy.autoOrder.filter { !policy.enabled.contains($0) }.map(\.rawValue)
            if !off.isEmpty {
                reader.problem(
                    Settings.autoChannels, (autoGiven == nil ? "(default \(Settings.autoChannels.defaultValue)) " : "")
                        + "lists \(off.joined(separator: ", ")), which \(Settings.channels.name) does not enable")
            }
        }
        return policy
    }

    /// A channel's gateway list: as given; else, when the channel is enabled (or in `auto`'s
    /// order), the console sink in development and a problem in production.
    private func chain(_ setting: Setting<[String]>, _ channel: Channel, needed: Set<Channel>, _ reader: inout SettingReader) -> [String] {
        if let list = reader(setting) { return list }
        guard needed.contains(channel) else { return [] }
        if mode == .development { return ["console"] }
        reader.problem(setting, "is required: \(Settings.channels.name) enables \(channel.rawValue) (directly or through auto)")
        return []
    }
}
