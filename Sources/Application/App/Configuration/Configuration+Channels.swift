import Foundation
import Gateways
import LibCrypto
import SettingsTable
import Vendors
import VerifyCore

extension Configuration {
    /// Channels clients may ask for, `auto`, and the WhatsApp and voice chains with their vendors'
    /// settings (`Settings+Channels.swift`, `Settings+ChannelVendors.swift`). Runs after
    /// `readGateways`: vendors' account credentials are shared with the SMS gateways.
    mutating func readChannels(_ reader: inout SettingReader) {
        let policy = readChannelPolicy(&reader)
        self.policy.channels = policy
        let needed = policy.enabled.union(policy.autoEnabled ? Set(policy.autoOrder) : [])

        var g = ChannelGatewaySettings()
        g.whatsApp = chain(Settings.whatsAppGateways, .whatsapp, needed: needed, &reader)
        g.voice = chain(Settings.voiceGateways, .call, needed: needed, &reader)
        g.ringTimeout = reader(Settings.voiceRingTimeout)
        if g.whatsApp.contains("meta") { g.meta = readMeta(&reader) }
        if g.whatsApp.contains("twilio") || g.voice.contains("twilio") {
            let (base, sid, token) = twilioAccount(&reader, for: "the twilio WhatsApp or voice gateway")
            if g.whatsApp.contains("twilio") {
                let user = "the twilio WhatsApp gateway"
                g.twilioWhatsApp = .init(
                    baseURL: base, accountSID: sid, authToken: token,
                    from: reader.required(Settings.twilioWhatsAppFrom, for: user) ?? "",
                    contentSID: reader.required(Settings.twilioWhatsAppContentSID, for: user) ?? "",
                    contentSIDs: reader(Settings.twilioWhatsAppContentSIDs) ?? [:])
            }
            if g.voice.contains("twilio") {
                let from = reader(Settings.twilioVoiceFrom) ?? twilio?.from ?? reader(Settings.twilioFrom)
                if from == nil {
                    reader.problem(Settings.twilioVoiceFrom, "(or \(Settings.twilioFrom.name)) is required by the twilio voice gateway")
                }
                g.twilioVoice = .init(
                    baseURL: base, accountSID: sid, authToken: token, from: from ?? "",
                    voices: reader(Settings.twilioVoiceVoices) ?? TwilioVoiceConfiguration.defaultVoices)
            }
        }
        if g.whatsApp.contains("vonage") {
            let user = "the vonage WhatsApp gateway"
            let key = vonage?.apiKey ?? reader.required(Settings.vonageAPIKey, for: user) ?? ""
            let secret = vonage?.apiSecret ?? reader.required(Settings.vonageAPISecret, for: user) ?? ""
            g.vonageWhatsApp = .init(
                baseURL: reader.value(Settings.vonageMessagesBaseURL), apiKey: key, apiSecret: secret,
                from: reader.required(Settings.vonageWhatsAppFrom, for: user) ?? "",
                template: reader.required(Settings.vonageWhatsAppTemplate, for: user) ?? "",
                language: WhatsAppLanguage(
                    approved: reader(Settings.vonageWhatsAppLanguages) ?? [],
                    fallback: reader.value(Settings.vonageWhatsAppFallbackLanguage)))
        }
        if g.voice.contains("vonage") { g.vonageVoice = readVonageVoice(&reader) }
        if g.whatsApp.contains("vonage") || g.voice.contains("vonage") {
            g.vonageSignatureSecret = reader(Settings.vonageSignatureSecret)
            g.vonageCallbackToken = vonage?.callbackToken ?? reader(Settings.vonageCallbackToken)
        }
        if g.uses("webhook"), webhook == nil {
            let user = "the webhook gateway"
            let url = reader.required(Settings.webhookURL, for: user) ?? ""
            webhook = WebhookSettings(url: url, secret: reader.required(Settings.webhookSecret, for: user)?.text ?? "")
        }
        channelGateways = g
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

    private func readMeta(_ reader: inout SettingReader) -> MetaSettings {
        let user = "the meta WhatsApp gateway"
        return .init(
            baseURL: reader.value(Settings.metaBaseURL),
            apiVersion: reader.value(Settings.metaAPIVersion),
            phoneNumberID: reader.required(Settings.metaPhoneNumberID, for: user) ?? "",
            accessToken: reader.required(Settings.metaAccessToken, for: user) ?? "",
            template: reader.required(Settings.metaTemplate, for: user) ?? "",
            language: WhatsAppLanguage(
                approved: reader(Settings.metaLanguages) ?? [], fallback: reader.value(Settings.metaFallbackLanguage)),
            appSecret: reader(Settings.metaAppSecret), verifyToken: reader(Settings.metaVerifyToken))
    }

    /// Base URL, account SID and auth token: the SMS gateway's when it is configured.
    private func twilioAccount(_ reader: inout SettingReader, for user: String) -> (String, String, String) {
        if let t = twilio { return (t.baseURL, t.accountSID, t.authToken) }
        let sid = reader.required(Settings.twilioAccountSID, for: user) ?? ""
        let token = reader.required(Settings.twilioAuthToken, for: user) ?? ""
        return (reader.value(Settings.twilioBaseURL), sid, token)
    }

    private func readVonageVoice(_ reader: inout SettingReader) -> VonageVoiceSettings? {
        let user = "the vonage voice gateway"
        let id = reader.required(Settings.vonageApplicationID, for: user)
        let from = reader.required(Settings.vonageVoiceFrom, for: user)
        let base = reader.value(Settings.vonageVoiceBaseURL)
        let inline = reader(Settings.vonagePrivateKey)
        let file = reader(Settings.vonagePrivateKeyFile)
        let pem: String
        switch (inline, file) {
        case (let text?, nil): pem = text.replacingOccurrences(of: "\\n", with: "\n")
        case (nil, let path?):
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                reader.problem(Settings.vonagePrivateKeyFile, "cannot be read")
                return nil
            }
            pem = text
        case (nil, nil):
            reader.problem(Settings.vonagePrivateKey, "(or \(Settings.vonagePrivateKeyFile.name)) is required by \(user)")
            return nil
        case (_?, _?):
            reader.problem(Settings.vonagePrivateKey, "and \(Settings.vonagePrivateKeyFile.name) are both set: give one")
            return nil
        }
        let setting: any SettingEntry = file == nil ? Settings.vonagePrivateKey : Settings.vonagePrivateKeyFile
        guard let key = try? SigningKey(pem: pem) else {
            reader.problem(setting, "is not a PEM private key")
            return nil
        }
        guard let id, let from, let token = try? VonageApplicationToken(applicationID: id, key: key) else {
            if id != nil, from != nil { reader.problem(setting, "must be an RSA key (Vonage applications sign with RS256)") }
            return nil
        }
        return .init(baseURL: base, from: from, token: token)
    }
}
