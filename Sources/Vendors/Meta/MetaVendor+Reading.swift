import Gateways
import SettingsTable
import VerifyCore

extension MetaVendor {
    public static let name = "meta"
    public static let channels: [Channel] = [.whatsapp]

    /// Its WhatsApp sender, template and webhook secrets when `meta` is in the WhatsApp list.
    public static func read(_ reader: inout SettingReader, lists: GatewayLists) -> MetaVendor {
        guard lists.names(name, for: .whatsapp) else { return MetaVendor(whatsApp: nil) }
        let user = "the meta WhatsApp gateway"
        return MetaVendor(whatsApp: MetaSettings(
            baseURL: reader.value(Table.baseURL),
            apiVersion: reader.value(Table.apiVersion),
            phoneNumberID: reader.required(Table.phoneNumberID, for: user) ?? "",
            accessToken: reader.required(Table.accessToken, for: user) ?? "",
            template: reader.required(Table.template, for: user) ?? "",
            language: WhatsAppLanguage(
                approved: reader(Table.languages) ?? [], fallback: reader.value(Table.fallbackLanguage)),
            appSecret: reader(Table.appSecret), verifyToken: reader(Table.verifyToken)))
    }
}
