import Foundation
import Gateways
import LibCrypto
import SettingsTable
import VerifyCore

extension VonageVendor {
    public static let name = "vonage"
    public static let channels: [Channel] = [.sms, .whatsapp, .call]

    /// The SMS account when `vonage` is in the SMS list (WhatsApp shares its key and secret);
    /// WhatsApp's sender and template; the voice application; the webhooks' secrets.
    public static func read(_ reader: inout SettingReader, lists: GatewayLists) -> VonageVendor {
        var sms: VonageSettings?
        if lists.names(name, for: .sms) {
            let user = "the vonage gateway"
            let key = reader.required(Table.apiKey, for: user) ?? ""
            let secret = reader.required(Table.apiSecret, for: user) ?? ""
            let from = reader.required(Table.from, for: user) ?? ""
            sms = VonageSettings(
                baseURL: reader.value(Table.baseURL), apiKey: key, apiSecret: secret, from: from, callbackToken: reader(Table.callbackToken))
        }
        var whatsApp: VonageWhatsAppSettings?
        if lists.names(name, for: .whatsapp) {
            let user = "the vonage WhatsApp gateway"
            let key = sms?.apiKey ?? reader.required(Table.apiKey, for: user) ?? ""
            let secret = sms?.apiSecret ?? reader.required(Table.apiSecret, for: user) ?? ""
            whatsApp = VonageWhatsAppSettings(
                baseURL: reader.value(Table.messagesBaseURL), apiKey: key, apiSecret: secret,
                from: reader.required(Table.whatsAppFrom, for: user) ?? "",
                template: reader.required(Table.whatsAppTemplate, for: user) ?? "",
                language: WhatsAppLanguage(
                    approved: reader(Table.whatsAppLanguages) ?? [], fallback: reader.value(Table.whatsAppFallbackLanguage)))
        }
        let voice = lists.names(name, for: .call) ? readVoice(&reader) : nil
        var signatureSecret: String?, callbackToken: String?
        if lists.names(name, for: .whatsapp) || lists.names(name, for: .call) {
            signatureSecret = reader(Table.signatureSecret)
            callbackToken = sms?.callbackToken ?? reader(Table.callbackToken)
        }
        return VonageVendor(sms: sms, whatsApp: whatsApp, voice: voice, signatureSecret: signatureSecret, callbackToken: callbackToken)
    }

    static func readVoice(_ reader: inout SettingReader) -> VonageVoiceSettings? {
        let user = "the vonage voice gateway"
        let id = reader.required(Table.applicationID, for: user)
        let from = reader.required(Table.voiceFrom, for: user)
        let base = reader.value(Table.voiceBaseURL)
        let inline = reader(Table.privateKey)
        let file = reader(Table.privateKeyFile)
        let pem: String
        switch (inline, file) {
        case (let text?, nil): pem = text.replacingOccurrences(of: "\\n", with: "\n")
        case (nil, let path?):
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                reader.problem(Table.privateKeyFile, "cannot be read")
                return nil
            }
            pem = text
        case (nil, nil):
            reader.problem(Table.privateKey, "(or \(Table.privateKeyFile.name)) is required by \(user)")
            return nil
        case (_?, _?):
            reader.problem(Table.privateKey, "and \(Table.privateKeyFile.name) are both set: give one")
            return nil
        }
        let setting: any SettingEntry = file == nil ? Table.privateKey : Table.privateKeyFile
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
