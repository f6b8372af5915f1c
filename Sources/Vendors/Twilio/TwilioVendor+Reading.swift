import VerifyCore
import SettingsTable

extension TwilioVendor {
    public static let name = "twilio"
    public static let channels: [Channel] = [.sms, .whatsapp, .call]

    /// The SMS account when `twilio` is in the SMS list; WhatsApp and voice share its base URL,
    /// account SID and auth token (read for them alone when SMS does not use Twilio).
    public static func read(_ reader: inout SettingReader, lists: GatewayLists) -> TwilioVendor {
        var sms: TwilioSettings?
        if lists.names(name, for: .sms) {
            let user = "the twilio gateway"
            let sid = reader.required(Table.accountSID, for: user) ?? ""
            let token = reader.required(Table.authToken, for: user) ?? ""
            let from = reader.required(Table.from, for: user) ?? ""
            sms = TwilioSettings(baseURL: reader.value(Table.baseURL), accountSID: sid, authToken: token, from: from)
        }
        let whatsApp = lists.names(name, for: .whatsapp), voice = lists.names(name, for: .call)
        guard whatsApp || voice else { return TwilioVendor(sms: sms, whatsApp: nil, voice: nil) }
        let (base, sid, token) = sms.map { ($0.baseURL, $0.accountSID, $0.authToken) } ?? {
            let user = "the twilio WhatsApp or voice gateway"
            let sid = reader.required(Table.accountSID, for: user) ?? ""
            let token = reader.required(Table.authToken, for: user) ?? ""
            return (reader.value(Table.baseURL), sid, token)
        }()
        var whatsAppSettings: TwilioWhatsAppSettings?
        if whatsApp {
            let user = "the twilio WhatsApp gateway"
            whatsAppSettings = TwilioWhatsAppSettings(
                baseURL: base, accountSID: sid, authToken: token,
                from: reader.required(Table.whatsAppFrom, for: user) ?? "",
                contentSID: reader.required(Table.whatsAppContentSID, for: user) ?? "",
                contentSIDs: reader(Table.whatsAppContentSIDs) ?? [:])
        }
        var voiceSettings: TwilioVoiceSettings?
        if voice {
            let from = reader(Table.voiceFrom) ?? sms?.from ?? reader(Table.from)
            if from == nil {
                reader.problem(Table.voiceFrom, "(or \(Table.from.name)) is required by the twilio voice gateway")
            }
            voiceSettings = TwilioVoiceSettings(
                baseURL: base, accountSID: sid, authToken: token, from: from ?? "",
                voices: reader(Table.voiceVoices) ?? TwilioVoiceConfiguration.defaultVoices)
        }
        return TwilioVendor(sms: sms, whatsApp: whatsAppSettings, voice: voiceSettings)
    }
}
